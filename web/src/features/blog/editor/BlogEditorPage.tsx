import { Fragment, useEffect, useRef, useState, type FormEvent } from 'react';
import { Banner, Button, Spinner } from '@primer/react';
import { HistoryIcon, PencilIcon, TrashIcon } from '@primer/octicons-react';
import { AREAS, type PageDef } from '../../../app/areas';
import { useDocumentTitle } from '../../../app/i18n';
import { useNarrow } from '../../../app/use-narrow';
import { UnavailablePanel } from '../../../components/DetailFrame';
import { DraftOffer } from '../../../components/DraftOffer';
import { readError } from '../../../components/gql-errors';
import { leaveOnPurpose } from '../../../app/leave-guard';
import { Page } from '../../../components/Page';
import { PageHeading } from '../../../components/PageHeading';
import { ToastHost } from '../../../components/Toast';
import { BodyConflict } from './BodyConflict';
import { CategoryDialog } from './CategoryDialog';
import { PostFields } from './PostFields';
import { PreviewDialog } from './PreviewDialog';
import { RevisionsDialog } from './RevisionsDialog';
import { useHistoryText } from './history.i18n';
import { PublishFields } from './PublishFields';
import { TagDialog } from './TagDialog';
import { useDeletePost } from './use-delete-post';
import { usePostEditor } from './use-post-editor';
import styles from './editor.module.css';

/**
 * ブログ作成 / ブログ詳細: /blog/new, /blog/{id}, and their /blog/sp variants (one column, as on a
 * window under 440 px). A post opens in view mode (編集 for its author); a new one in edit mode.
 * 保存 publishes, 下書き保存 keeps it unpublished; both return to the list. キャンセル goes back to
 * the list through the leave guard.
 */
export default function BlogEditorPage({ def, id }: { def: PageDef; id?: string }) {
  const p = usePostEditor(def, id);
  const { t, values: v, editing } = p;
  const narrow = useNarrow() || !!def.mobile;
  const title = t(p.isNew ? 'page.blogNew' : 'page.blogDetail');
  useDocumentTitle(title);
  const [dialog, setDialog] = useState<'category' | 'tags' | 'history' | 'preview' | null>(null);
  const h = useHistoryText();
  const form = useRef<HTMLFormElement>(null);
  const deletion = useDeletePost(p.post?.canDelete ? { id: p.post.id, title: p.post.title } : null, {
    list: p.list,
    leaveOnPurpose,
  });

  // A refused save: the first field it names comes into view (the actions sit below a long form).
  const errorCount = Object.values(p.fieldErrors).filter(Boolean).length;
  useEffect(() => {
    if (!errorCount && !p.failure) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]');
    (invalid ?? form.current)?.scrollIntoView({ block: 'center' });
    invalid?.focus({ preventScroll: true });
  }, [errorCount, p.failure]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (editing) void p.save(false);
  };

  const unavailable = !p.isNew && !p.loading && !p.post;
  const notFound = !p.valid || !p.loadError || ['NOT_FOUND', 'BAD_USER_INPUT'].includes(readError(p.loadError).code);
  const chips = [
    p.post && p.post.state !== 'PUBLISHED' ? p.post.stateLabel : null,
    editing && !p.isNew ? t('rec.editing') : null,
  ];

  return (
    <Page testId="blog-editor-page">
      <ToastHost closeLabel={t('rec.close')} />
      <PageHeading section={t(AREAS.blog.section)} title={title} labels={chips} />
      {p.draft.offered && !p.loading && (
        <div className={styles.banner}>
          <DraftOffer savedAt={p.draft.offered.savedAt} onRestore={p.draft.restore} onDiscard={p.draft.discard} />
        </div>
      )}
      {p.failure && (
        <div className={styles.banner}>
          <Banner
            variant="critical"
            title={t('rec.saveFailedTitle')}
            description={p.failure}
            onDismiss={p.dismissFailure}
            data-testid="blog-save-failure"
          />
        </div>
      )}
      {p.conflict.message && (
        <div className={styles.banner}>
          {p.conflict.fieldPanel(
            t('rec.conflictTitle'),
            p.conflict.bodyTaken ? `${p.conflict.message}${t('blogEdit.bodyTaken')}` : p.conflict.message,
          )}
          {p.conflict.clash && (
            <BodyConflict clash={p.conflict.clash} onChoose={(c) => void p.conflict.chooseBody(c)} />
          )}
        </div>
      )}
      {p.loading ? (
        <div className={styles.loading}>
          <Spinner size="medium" srText={t('common.loading')} />
        </div>
      ) : unavailable ? (
        <UnavailablePanel
          title={notFound ? t('rec.notFoundTitle') : t('rec.loadFailedTitle')}
          body={notFound ? t('rec.notFoundBody') : t('blog.fetchFailed')}
          back={{ href: p.list, label: t('rec.back') }}
        />
      ) : (
        <form
          ref={form}
          onSubmit={submit}
          noValidate
          data-mode={editing ? 'edit' : 'view'}
          className={styles.form}
          data-narrow={narrow || undefined}
        >
          <div className={styles.card}>
            <PostFields
              p={p}
              onCategory={() => setDialog('category')}
              onTags={() => setDialog('tags')}
              onPreview={() => setDialog('preview')}
            />
          </div>
          <div className={styles.card}>
            <PublishFields p={p} />
          </div>
          <div className={styles.actions} data-sticky-actions>
            {/* Keyed apart: 編集's button must never be reused as 保存 (type=submit) in the click that switches to edit mode, or that click submits the form. */}
            {editing ? (
              <Fragment key="edit">
                <Button onClick={p.cancel} disabled={p.saving}>
                  {t('rec.cancel')}
                </Button>
                {p.canSaveDraft && (
                  <Button onClick={() => void p.save(true)} disabled={p.saving} data-testid="blog-save-draft">
                    {t('blogEdit.saveDraft')}
                  </Button>
                )}
                <Button
                  type="submit"
                  variant="primary"
                  disabled={p.saving}
                  leadingVisual={p.saving ? () => <Spinner size="small" srText={null} /> : undefined}
                >
                  {p.saving ? t('rec.saving') : p.post?.state === 'DRAFT' ? t('blogEdit.publish') : t('rec.save')}
                </Button>
              </Fragment>
            ) : (
              <Fragment key="view">
                <Button onClick={p.cancel}>{t('rec.back')}</Button>
                {/* The history's readers are the post's deleters: its author, 管理者 and システム管理者. */}
                {p.post?.canDelete && (
                  <Button
                    leadingVisual={HistoryIcon}
                    onClick={() => setDialog('history')}
                    data-testid="blog-history-open"
                  >
                    {h('open')}
                  </Button>
                )}
                {p.post?.canDelete && (
                  <Button
                    variant="danger"
                    leadingVisual={TrashIcon}
                    onClick={() => void deletion.remove()}
                    disabled={deletion.deleting}
                    data-testid="blog-delete"
                  >
                    {deletion.label}
                  </Button>
                )}
                {p.post?.canEdit && (
                  <Button variant="primary" leadingVisual={PencilIcon} onClick={p.startEditing}>
                    {t('rec.edit')}
                  </Button>
                )}
              </Fragment>
            )}
          </div>
        </form>
      )}
      {deletion.dialog}
      {dialog === 'category' && (
        <CategoryDialog
          current={v.category}
          onClose={() => setDialog(null)}
          onPick={(c) => {
            p.set('category', c);
            setDialog(null);
          }}
        />
      )}
      {dialog === 'preview' && <PreviewDialog p={p} narrow={narrow} onClose={() => setDialog(null)} />}
      {dialog === 'history' && p.post && (
        <RevisionsDialog post={p.post} onClose={() => setDialog(null)} onRestored={p.reload} />
      )}
      {dialog === 'tags' && (
        <TagDialog
          current={v.tags}
          onClose={() => setDialog(null)}
          onPick={(tags) => {
            p.set('tags', tags);
            setDialog(null);
          }}
        />
      )}
    </Page>
  );
}
