import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useApolloClient, useQuery } from '@apollo/client/react';
import type { PageDef } from '../../../app/areas';
import { useI18n } from '../../../app/i18n';
import { leaveOnPurpose, useLeaveGuard } from '../../../app/leave-guard';
import { useRecordEditor } from '../../../components/DetailFrame';
import { recordIdOf } from '../../../components/save-flow';
import { toast } from '../../../components/Toast';
import { checkAttachment, readAsDataUrl } from './attachment';
import { BlogEditorCategoriesQuery, BlogPostEditQuery } from './operations';
import {
  emptyForm,
  formFieldOf,
  formOf,
  restBody,
  togglePin,
  tokyoToday,
  type FormField,
  type PostDocument,
  type PostForm,
} from './post-form';
import type { RichTextEditorHandle } from '../../../components/rich-text/RichTextEditor';
import { savePost, SaveRefused } from './save-post';
import { usePostConflict } from './use-post-conflict';
import { usePostDraft } from './use-post-draft';

/**
 * The state of the blog's create/edit page: the post loaded into the form, the body's editor, the
 * attachment being read, the save (always through `/api/blogs`, see save-post.ts), and the way out:
 * Cancel and every other route change go through the app's leave guard while there are unsaved edits;
 * a save leaves on purpose, back to the list.
 */
export function usePostEditor(def: PageDef, id: string | undefined) {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const apollo = useApolloClient();
  const list = def.mobile ? '/blog/sp' : '/blog';
  const { isNew, numericId, valid } = recordIdOf(def, id);
  const today = useMemo(() => tokyoToday(), []);
  const ed = useRecordEditor<PostForm>(emptyForm(today), isNew);
  const { data, loading, error, refetch } = useQuery(BlogPostEditQuery, {
    variables: { id: numericId },
    skip: isNew || !valid,
    fetchPolicy: 'no-cache',
  });
  const post = data?.blogPost ?? null;
  const body = useRef<RichTextEditorHandle>(null);
  const [bodyEdited, setBodyEdited] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FormField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const conflict = usePostConflict(ed, body, numericId);
  const { load, setEditing } = ed;
  const { loaded: bodyLoaded } = conflict;
  useEffect(() => {
    if (!post) return;
    load(formOf(post));
    bodyLoaded((post.content as PostDocument | null) ?? null);
  }, [post, load, bodyLoaded]);

  const dirty = ed.dirty || bodyEdited;
  const autosave = usePostDraft({
    form: valid ? `blog-post.${isNew ? 'new' : numericId}` : null,
    ed,
    dirty,
    body,
    conflict,
    post,
    canOffer: isNew || !!post?.canEdit,
    onAttachmentLeft: useCallback(
      (name: string) =>
        setFieldErrors((prev) => ({ ...prev, attachment: t('blogEdit.draftAttachmentLeft', { name }) })),
      [t],
    ),
  });
  useLeaveGuard(ed.editing && dirty, autosave.discard);

  const setValue = ed.set;
  const set = useCallback(
    <K extends keyof PostForm>(key: K, value: PostForm[K]) => {
      setValue(key, value);
      setFieldErrors((prev) => (prev[key] ? { ...prev, [key]: undefined } : prev));
    },
    [setValue],
  );

  const setPin = (on: boolean) => ed.setValues((v) => ({ ...v, ...togglePin(v, on, today) }));

  /** A chosen file: checked by name and size here (the server checks its content again), then read. */
  const chooseFile = async (file: File) => {
    const refusal = checkAttachment(file);
    if (refusal) {
      setFieldErrors((prev) => ({
        ...prev,
        attachment: t(
          refusal === 'type'
            ? 'blogEdit.fileType'
            : refusal === 'size'
              ? 'blogEdit.fileSize'
              : 'blogEdit.fileUnreadable',
        ),
      }));
      return;
    }
    setFieldErrors((prev) => ({ ...prev, attachment: undefined }));
    setProcessing(true);
    try {
      const dataUrl = await readAsDataUrl(file);
      set('attachment', {
        kind: 'new',
        uid: `${Date.now()}`,
        name: file.name,
        type: file.type || 'application/octet-stream',
        size: file.size,
        dataUrl,
      });
    } catch {
      setFieldErrors((prev) => ({ ...prev, attachment: t('blogEdit.fileUnreadable') }));
    } finally {
      setProcessing(false);
    }
  };

  /** A refused save: each message under the field it names, or (naming none) once in the banner. */
  const showRefusal = (e: SaveRefused) => {
    const japanese = locale === 'ja';
    const byField: Partial<Record<FormField, string>> = {};
    for (const f of e.fieldErrors) {
      const field = formFieldOf(f.field);
      if (field && !byField[field]) byField[field] = japanese ? f.message : t('err.field');
    }
    setFieldErrors(byField);
    if (Object.keys(byField).length > 0) setFailure(null);
    else if (e.code === 'NETWORK') setFailure(t('err.NETWORK'));
    else
      setFailure(
        japanese && e.message
          ? e.message
          : t(e.code === 'CONFLICT' ? 'err.CONFLICT' : e.code === 'FORBIDDEN' ? 'err.FORBIDDEN' : 'err.OTHER', {
              name: '',
            }),
      );
  };

  const save = async (draft: boolean) => {
    if (saving) return;
    // Spec §5: no save while the chosen file is still being read.
    if (processing) {
      setFieldErrors((prev) => ({ ...prev, attachment: t('blogEdit.fileProcessing') }));
      setFailure(null);
      return;
    }
    // An end switched on needs its date (sent empty, the server would read "no end").
    if (ed.values.hasPublishEnd && !ed.values.publishEnd) {
      setFieldErrors({ publishEnd: t('blogEdit.publishEndRequired') });
      setFailure(null);
      return;
    }
    setSaving(true);
    conflict.clear();
    setFailure(null);
    setFieldErrors({});
    let content: PostDocument = { blocks: [] };
    try {
      content = (await body.current?.save()) ?? (post?.content as PostDocument | undefined) ?? { blocks: [] };
      await savePost(
        isNew ? null : numericId,
        restBody(ed.values, content, { postId: isNew ? null : numericId, draft }),
      );
      autosave.saved();
      toast.success(t(draft ? 'blogEdit.savedDraft' : isNew ? 'blogEdit.created' : 'blogEdit.updated'));
      // Posted where the author does not read (a 管理者 may post anywhere): すべて would not show it, マイブログ does; say so.
      const outside = !draft && (await outsideReadingRange(ed.values.category?.id));
      if (outside) toast.info(t('blogEdit.postedOutsideRange'));
      leaveOnPurpose(() => navigate(outside ? `${list}?scope=mine` : list));
    } catch (e) {
      // Saved elsewhere first: merged with the saved version (usePostConflict); nothing typed is lost.
      if (e instanceof SaveRefused && e.code === 'CONFLICT' && !isNew) {
        if (await conflict.recover(locale === 'ja' && e.message ? e.message : t('err.CONFLICT', { name: '' }), content))
          return;
      }
      if (e instanceof SaveRefused) showRefusal(e);
      else setFailure(t('err.OTHER', { name: '' }));
    } finally {
      setSaving(false);
    }
  };

  const outsideReadingRange = async (categoryId: number | undefined) => {
    if (categoryId === undefined) return false;
    const r = await apollo.query({ query: BlogEditorCategoriesQuery, fetchPolicy: 'cache-first' }).catch(() => null);
    const category = r?.data?.blogCategories.find((c) => c.id === categoryId);
    return !!category && !category.isMember;
  };

  /** Cancel: back to the list; with unsaved edits the leave guard asks first (its answer decides). */
  const cancel = () => navigate(list);

  return {
    t,
    locale,
    list,
    isNew,
    valid,
    today,
    post,
    loading: !isNew && valid && loading && !post,
    loadError: error,
    /** Reads the post again (after a revision was restored). */
    reload: () => void refetch(),
    values: ed.values,
    editing: ed.editing,
    startEditing: () => setEditing(true),
    set,
    setPin,
    chooseFile,
    removeFile: () => set('attachment', { kind: 'none' }),
    processing,
    body,
    bodyEdited: () => {
      setBodyEdited(true);
      autosave.changed();
    },
    /** An autosaved draft found on opening, and the answers to it. */
    draft: { offered: autosave.offered, restore: autosave.restore, discard: autosave.discard },
    saving,
    save,
    cancel,
    fieldErrors,
    failure,
    dismissFailure: () => setFailure(null),
    conflict,
    /** 下書き保存 is offered on a new post and on a draft (a published post is unpublished by no button). */
    canSaveDraft: isNew || post?.state === 'DRAFT',
  };
}

export type PostEditor = ReturnType<typeof usePostEditor>;
