import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, TextInput } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
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

/**
 * タグの選択 (spec §2, §5): a selectable table of every tag; create one (non-empty once trimmed),
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
  const { data, loading, refetch } = useQuery(BlogEditorTagsQuery, { fetchPolicy: 'no-cache' });
  const [create, created] = useMutation(CreateBlogTagMutation);
  const [remove, removed] = useMutation(DeleteBlogTagsMutation);
  const [selected, setSelected] = useState<Set<string | number>>(() => new Set(current.map((c) => c.id)));
  const [content, setContent] = useState('');
  const [contentError, setContentError] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const rows = data?.blogTags ?? [];

  const select = (next: Set<string | number>) => {
    setSelected(next);
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
      await refetch();
      if (tag) select(new Set([...selected, tag.id]));
    } catch (err) {
      const e2 = readError(err);
      setContentError(e2.fieldErrors.content ?? errorText(e2));
    }
  };

  const deleteSelected = async () => {
    const ids = rows.filter((r) => selected.has(r.id)).map((r) => r.id);
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
      select(new Set([...selected].filter((id) => !ids.includes(Number(id)))));
      await refetch();
    } catch (err) {
      setProblem(errorText(readError(err)));
    }
  };

  const decide = () => {
    const picked = rows.filter((r) => selected.has(r.id)).map((r) => ({ id: r.id, content: r.content }));
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
        <span className={styles.hint}>
          {t('blogEdit.tagSelected', { n: rows.filter((r) => selected.has(r.id)).length })}
        </span>
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
      <ListTable
        label={t('blogEdit.tagDialog')}
        testId="blog-tag-table"
        columns={[
          { key: 'id', header: t('col.id'), render: (r) => r.id, width: '4.5rem', nowrap: true },
          { key: 'content', header: t('blogEdit.tagContent'), render: (r) => r.content },
        ]}
        rows={rows}
        rowKey={(r) => r.id}
        loading={loading && !data}
        emptyText={t('blogEdit.tagEmptyList')}
        openOnClick
        onOpen={(r) => toggle(r.id)}
        selection={{
          selected,
          onChange: select,
          selectAllLabel: t('grid.selectAll'),
          selectRowLabel: (r) => t('grid.selectRow', { name: r.content }),
        }}
      />
      {dialog}
    </ChoiceDialog>
  );
}
