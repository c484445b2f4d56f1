import { useCallback, useEffect, useState, type RefObject } from 'react';
import { useT } from '../../../app/i18n';
import { useAutosave } from '../../../app/use-autosave';
import type { RichTextEditorHandle } from '../../../components/rich-text/RichTextEditor';
import type { EditedPost, PostDocument, PostForm } from './post-form';
import type { PostConflict } from './use-post-conflict';

/** What the editor keeps in the browser while a post is typed (app/use-autosave.ts). */
export interface PostDraft {
  values: PostForm;
  body: PostDocument;
  /** An edited post's form and body as they were loaded: the base of a merge with what was saved since. */
  base: PostForm | null;
  baseBody: PostDocument | null;
  /** A chosen file too large to keep in the browser: its name, so the user is asked for it again. */
  attachmentLeft?: string;
}

/** A new attachment's data URL up to this length is kept with the draft (a browser keeps ~5 M characters per site). */
export const KEPT_ATTACHMENT_CHARS = 1_500_000;

/** The draft to keep: a chosen file too large for the browser's storage leaves only its name. */
export function draftOf(values: PostForm, body: PostDocument, base: PostForm | null, baseBody: PostDocument | null) {
  const a = values.attachment;
  if (a.kind === 'new' && a.dataUrl.length > KEPT_ATTACHMENT_CHARS)
    return {
      values: { ...values, attachment: base?.attachment ?? { kind: 'none' } },
      body,
      base,
      baseBody,
      attachmentLeft: a.name,
    } satisfies PostDraft;
  return { values, body, base, baseBody } satisfies PostDraft;
}

interface Editor {
  values: PostForm;
  loaded: PostForm;
  editing: boolean;
  setValues(v: PostForm): void;
  rebase(saved: PostForm, merged: PostForm): void;
  setEditing(on: boolean): void;
}

/**
 * The post editor's autosave: the form and body are kept a moment after each edit (nothing when they
 * are as loaded), offered back on opening the post (or a new one) again, and dropped once saved or
 * thrown away. A restored draft of a post saved since goes through the conflict merge at once, from
 * the version it was typed on, so neither side's changes are lost.
 */
export function usePostDraft(o: {
  form: string | null;
  ed: Editor;
  dirty: boolean;
  body: RefObject<RichTextEditorHandle | null>;
  conflict: PostConflict;
  post: EditedPost | null;
  /** May a draft be offered now (a new post, or a loaded post the user may edit)? */
  canOffer: boolean;
  onAttachmentLeft(name: string): void;
}) {
  const t = useT();
  const { ed, body, conflict, post } = o;
  const autosave = useAutosave<PostDraft>(o.form, async () => {
    if (!ed.editing || !o.dirty) return null;
    const now = (await body.current?.save()) ?? { blocks: [] };
    return draftOf(ed.values, now, post ? ed.loaded : null, post ? conflict.base() : null);
  });
  const { changed } = autosave;

  // Every change of the form's fields (the body reports its own through `changed`).
  const { values, editing } = ed;
  useEffect(() => {
    if (editing) changed();
  }, [values, editing, changed]);

  const [restoring, setRestoring] = useState<PostDraft | null>(null);
  const restore = useCallback(() => {
    const d = autosave.offered?.data;
    if (!d) return;
    autosave.accept();
    if (d.base) ed.rebase(d.base, d.values);
    else ed.setValues(d.values);
    if (d.baseBody) conflict.loaded(d.baseBody);
    ed.setEditing(true);
    setRestoring(d);
  }, [autosave, ed, conflict]);

  // The body goes in once the editor is there (after the switch to edit mode), then a post saved
  // since the draft's version is merged with it.
  const { onAttachmentLeft } = o;
  useEffect(() => {
    if (!restoring || !body.current) return;
    const d = restoring;
    setRestoring(null);
    void (async () => {
      await body.current?.replace(d.body);
      if (d.attachmentLeft) onAttachmentLeft(d.attachmentLeft);
      if (post && d.values.version !== post.version) await conflict.recover(t('blogEdit.draftOutdated'), d.body);
    })();
  }, [restoring, body, post, conflict, t, onAttachmentLeft]);

  return {
    offered: o.canOffer ? autosave.offered : null,
    restore,
    discard: autosave.discard,
    saved: autosave.saved,
    changed,
  };
}
