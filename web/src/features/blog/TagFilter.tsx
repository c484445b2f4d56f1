import { useEffect, useMemo, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { TextInput } from '@primer/react';
import { TagIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { useSuggestions } from '../../components/suggestions/use-suggestions';
import { BlogTagQuery, BlogTagSuggestionsQuery } from './operations';
import styles from './blog.module.css';

/** How many tags the list offers for what was typed. */
const OFFERED = 20;

/**
 * The feed's タグ filter: the company's tags are many, so one is found by typing part of it and
 * chosen from the list (↑ ↓ Enter, or a click); emptying the field is すべて. `value` is the tag's id.
 */
export function TagFilter({ value, onChange }: { value: string; onChange(id: string): void }) {
  const t = useT();
  const client = useApolloClient();
  const [text, setText] = useState('');
  /** The chosen tag was let go by typing (the text stays), not by クリア (the text goes). */
  const typing = useRef(false);
  // The content of the tag the address names (a link, a reload).
  useEffect(() => {
    if (!value) {
      if (!typing.current) setText('');
      typing.current = false;
      return;
    }
    let live = true;
    client
      .query({ query: BlogTagQuery, variables: { id: Number(value) } })
      .then(({ data }) => live && data?.blogTag && setText(data.blogTag.content))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value, client]);
  const search = useMemo(
    () => async (query: string) =>
      (await client.query({ query: BlogTagSuggestionsQuery, variables: { query, limit: OFFERED } })).data?.blogTags ??
      [],
    [client],
  );
  const list = useSuggestions(
    search,
    (tag) => ({ id: tag.id, label: tag.content }),
    (tag) => {
      setText(tag.content);
      onChange(String(tag.id));
    },
    {
      label: t('blog.filter.tagChoices'),
      emptyText: t('blog.filter.tagNone'),
      loadingText: t('common.loading'),
      testId: 'blog-tag-choices',
    },
  );
  const offer = (el: HTMLInputElement, typed: string) => {
    const r = el.getBoundingClientRect();
    list.open(typed.trim(), { left: r.left, top: r.top, bottom: r.bottom, width: r.width });
  };
  return (
    <label className={styles.filterField}>
      <span className={styles.filterLabel}>{t('blog.filter.tag')}</span>
      <TextInput
        leadingVisual={TagIcon}
        value={text}
        block
        placeholder={t('filter.all')}
        role="combobox"
        aria-label={t('blog.filter.tag')}
        aria-expanded={list.isOpen}
        aria-controls={list.isOpen ? list.listId : undefined}
        aria-activedescendant={list.activeId}
        aria-autocomplete="list"
        autoComplete="off"
        data-testid="blog-tag-filter"
        onChange={(e) => {
          setText(e.target.value);
          // What is typed is not the chosen tag until one is chosen again.
          if (value) {
            typing.current = true;
            onChange('');
          }
          offer(e.target, e.target.value);
        }}
        onFocus={(e) => offer(e.target, text)}
        onBlur={() => list.close()}
        onKeyDown={(e) => {
          if (list.onKey({ key: e.key, isComposing: e.nativeEvent.isComposing })) e.preventDefault();
        }}
      />
      {list.list}
    </label>
  );
}
