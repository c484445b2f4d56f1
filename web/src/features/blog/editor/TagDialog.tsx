import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, TextInput } from '@primer/react';
import { PlusIcon, SearchIcon, TrashIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { useDebounced } from '../../../app/use-debounced';
import type { BlogEditorTagsQuery as TagsAnswer } from '../../../gql/graphql';
import { useConfirm } from '../../../components/ConfirmDialog';
import { Field } from '../../../components/Field';
import { readError } from '../../../components/gql-errors';
import { useErrorText } from '../../../components/labels';
import { ListTable } from '../../../components/ListTable';
import { ChoiceDialog } from './ChoiceDialog';
import { BlogEditorTagsQuery, CreateBlogTagMutation, DeleteBlogTagsMutation } from './operations';
import type { PostForm } from './post-form';
import styles from './editor.module.css';

type Tag = PostForm['tags'][number];
type Row = TagsAnswer['blogTags'][number];

/** Tags shown at a time (the next ones on さらに表示). */
const TAG_PAGE = 100;

/**
 * タグの選択 (spec §2, §5): a selectable table of the tags, searched and shown a page at a time (the
 * chosen ones stay chosen across searches and pages); create one (non-empty once trimmed),
 * delete the selected ones after a confirmation (at least one selected), 決定 takes the selection
 * (at least one). Each refusal is one message, in the dialog.
 */
export function TagDialog({
  current,
  onClose,
  onPick,
}: {
  current: Tag[];
  onClose(): void;
  onPick(tags: Tag[]): void;
}) {
  const t = useT();
  const errorText = useErrorText();
  const { confirm, dialog } = useConfirm();
  const client = useApolloClient();
  const [query, setQuery] = useState('');
  const settled = useDebounced(query.trim(), 250);
  const [list, setList] = useState<{ rows: Row[]; total: number; loading: boolean }>({
    rows: [],
    total: 0,
    loading: true,
  });
  const [create, created] = useMutation(CreateBlogTagMutation);
  const [remove, removed] = useMutation(DeleteBlogTagsMutation);
  // Chosen tags by id, kept across searches and pages (what 決定 takes).
  const [chosen, setChosen] = useState<Map<number, Tag>>(() => new Map(current.map((c) => [c.id, c])));
  const [content, setContent] = useState('');
  const [contentError, setContentError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const rows = list.rows;

  /** The tags holding the search, a page at a time (`more`: the next page after those shown). */
  const load = useCallback(
    async (more: boolean) => {
      setList((l) => ({ ...l, loading: true }));
      try {
        const { data } = await client.query({
          query: BlogEditorTagsQuery,
          variables: { query: settled || null, offset: more ? rows.length : 0, limit: TAG_PAGE },
          fetchPolicy: 'no-cache',
        });
        const page = data?.blogTags ?? [];
        setList((l) => ({
          rows: more ? [...l.rows, ...page] : page,
          total: data?.blogTagCount ?? 0,
          loading: false,
        }));
      } catch (err) {
        setList((l) => ({ ...l, loading: false }));
        setProblem(errorText(readError(err)));
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the next page starts after the rows shown now
    [client, settled, rows.length],
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new search starts from its first page
  useEffect(() => void load(false), [settled]);
  const refetch = () => load(false);

  const selected = new Set<string | number>(chosen.keys());
  /** The table's selection (of the rows shown) becomes the chosen tags; chosen tags not shown stay. */
  const select = (next: Set<string | number>) => {
    const map = new Map(chosen);
    for (const r of rows) {
      if (next.has(r.id)) map.set(r.id, { id: r.id, content: r.content });
      else map.delete(r.id);
    }
    setChosen(map);
    setProblem(null);
  };
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    select(next);
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setProblem(null);
    if (!content.trim()) return setContentError(t('blogEdit.tagEmpty'));
    try {
      const res = await create({ variables: { input: { content: content.trim() } } });
      const tag = res.data?.createBlogTag;
      setContent('');
      setContentError(null);
      if (!tag) return void (await refetch());
      setChosen((m) => new Map(m).set(tag.id, { id: tag.id, content: tag.content }));
      // The new tag is shown (however many tags sort before it): the search becomes its name.
      if (query === tag.content) await refetch();
      else setQuery(tag.content);
    } catch (err) {
      const e2 = readError(err);
      setContentError(e2.fieldErrors.content ?? errorText(e2));
    }
  };

  const deleteSelected = async () => {
    const ids = [...chosen.keys()];
    if (ids.length === 0) return setProblem(t('blogEdit.tagDeleteNone'));
    const ok = await confirm({
      title: t('blogEdit.tagDeleteTitle'),
      body: t('blogEdit.tagDeleteConfirm', { n: ids.length }),
      confirmLabel: t('blogEdit.tagDelete'),
      cancelLabel: t('rec.dialogCancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await remove({ variables: { ids } });
      setChosen(new Map());
      await refetch();
    } catch (err) {
      setProblem(errorText(readError(err)));
    }
  };

  const decide = () => {
    const picked = [...chosen.values()];
    if (picked.length === 0) return setProblem(t('blogEdit.tagNoneSelected'));
    onPick(picked);
  };

  return (
    <ChoiceDialog
      title={t('blogEdit.tagDialog')}
      width="large"
      testId="blog-tag-dialog"
      className={styles.tagDialog}
      onClose={onClose}
      onDecide={decide}
    >
      <p className={styles.hint}>{t('blogEdit.tagShared')}</p>
      <form className={styles.tagCreate} onSubmit={(e) => void add(e)} noValidate>
        <Field label={t('blogEdit.tagNew')} error={contentError ?? undefined}>
          {(c) => (
            <TextInput
              {...c}
              block
              value={content}
              maxLength={50}
              onChange={(e) => {
                setContent(e.target.value);
                setContentError(null);
              }}
            />
          )}
        </Field>
        <Button type="submit" leadingVisual={PlusIcon} disabled={created.loading} className={styles.tagCreateButton}>
          {t('blogEdit.tagCreate')}
        </Button>
      </form>
      <div className={styles.tagBar}>
        <span className={styles.hint}>{t('blogEdit.tagSelected', { n: chosen.size })}</span>
        <Button
          variant="danger"
          size="small"
          leadingVisual={TrashIcon}
          onClick={() => void deleteSelected()}
          disabled={removed.loading}
        >
          {t('blogEdit.tagDelete')}
        </Button>
      </div>
      {problem && (
        <p className={styles.dialogError} role="alert">
          {problem}
        </p>
      )}
      <TextInput
        leadingVisual={SearchIcon}
        value={query}
        block
        aria-label={t('blogEdit.tagSearch')}
        placeholder={t('blogEdit.tagSearch')}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="blog-tag-search"
      />
      <p className={styles.hint} data-testid="blog-tag-count">
        {t('blogEdit.tagShown', { shown: rows.length, total: list.total })}
      </p>
      <ListTable
        label={t('blogEdit.tagDialog')}
        testId="blog-tag-table"
        columns={[
          { key: 'id', header: t('col.id'), render: (r) => r.id, width: '4.5rem', nowrap: true },
          { key: 'content', header: t('blogEdit.tagContent'), render: (r) => r.content },
        ]}
        rows={rows}
        rowKey={(r) => r.id}
        loading={list.loading && rows.length === 0}
        emptyText={settled ? t('blogEdit.tagNoMatch') : t('blogEdit.tagEmptyList')}
        openOnClick
        onOpen={(r) => toggle(r.id)}
        selection={{
          selected,
          onChange: select,
          selectAllLabel: t('grid.selectAll'),
          selectRowLabel: (r) => t('grid.selectRow', { name: r.content }),
        }}
      />
      {rows.length < list.total && (
        <Button block onClick={() => void load(true)} loading={list.loading} data-testid="blog-tag-more">
          {t('blogEdit.tagMore', { n: list.total - rows.length })}
        </Button>
      )}
      {dialog}
    </ChoiceDialog>
  );
}
