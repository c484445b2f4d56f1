import { useMemo } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { TagIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { SuggestField } from '../../components/suggestions/SuggestField';
import { BlogTagQuery, BlogTagSuggestionsQuery } from './operations';
import styles from './blog.module.css';

/** How many tags the list offers for what was typed. */
const OFFERED = 20;

/** The feed's タグ filter: the company's tags are many, so one is found by typing part of it. `value` is the tag's id. */
export function TagFilter({ value, onChange }: { value: string; onChange(id: string): void }) {
  const t = useT();
  const client = useApolloClient();
  const { search, nameOf } = useMemo(
    () => ({
      search: async (query: string) =>
        (await client.query({ query: BlogTagSuggestionsQuery, variables: { query, limit: OFFERED } })).data?.blogTags ??
        [],
      nameOf: async (id: number) =>
        (await client.query({ query: BlogTagQuery, variables: { id } })).data?.blogTag.content ?? null,
    }),
    [client],
  );
  return (
    <SuggestField
      value={value}
      onChange={onChange}
      search={search}
      toItem={(tag) => ({ id: tag.id, label: tag.content })}
      nameOf={nameOf}
      label={<span className={styles.filterLabel}>{t('blog.filter.tag')}</span>}
      name={t('blog.filter.tag')}
      placeholder={t('filter.all')}
      icon={TagIcon}
      className={styles.filterField}
      testId="blog-tag-filter"
      words={{
        label: t('blog.filter.tagChoices'),
        emptyText: t('blog.filter.tagNone'),
        loadingText: t('common.loading'),
        testId: 'blog-tag-choices',
      }}
    />
  );
}
