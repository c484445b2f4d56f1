import { useCallback, useRef, useState, type RefObject } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { useT } from '../../../app/i18n';
import type { RichTextEditorHandle } from '../../../components/rich-text/RichTextEditor';
import { useConflictMerge, type MergeFields } from '../../../components/record-merge';
import { mergedBody, sameBody } from './body-merge';
import { BlogPostEditQuery } from './operations';
import { formOf, type PostDocument, type PostForm } from './post-form';

export type BodyChoice = 'mine' | 'theirs' | 'merged';

/** Both bodies of a conflict where each side changed the text. */
export interface BodyClash {
  base: PostDocument;
  mine: PostDocument;
  theirs: PostDocument;
  theirsHtml: string;
  choice: BodyChoice;
}

/**
 * A save refused because the post was saved elsewhere first (another person, or the same one in
 * another tab): nothing typed is lost. The saved post is read again and merged three ways: a field
 * only one side changed takes that side's value, a field both changed is offered as a choice
 * (ConflictMerge), and the body is merged the same way: taken when only the other side changed it,
 * kept when only the writer did, and offered as mine / saved / both when both did. The form then
 * stands on the saved version, so the next 保存 goes through.
 */
export function usePostConflict(
  ed: Parameters<typeof useConflictMerge<PostForm>>[0],
  body: RefObject<RichTextEditorHandle | null>,
  postId: number,
) {
  const t = useT();
  const apollo = useApolloClient();
  const attachmentName = (a: PostForm['attachment']) =>
    a.kind === 'stored' ? a.file.name : a.kind === 'new' ? a.name : '';
  const fields: MergeFields<PostForm> = {
    title: t('blogEdit.title'),
    category: { label: t('blog.category'), show: (c) => c?.name ?? '' },
    tags: { label: t('blog.filter.tag'), show: (tags) => tags.map((x) => x.content).join('、') },
    publishStart: t('blogEdit.publishStart'),
    hasPublishEnd: t('blogEdit.hasPublishEnd'),
    publishEnd: t('blogEdit.publishEnd'),
    isPin: t('blogEdit.pin'),
    pinStart: t('blogEdit.pinStart'),
    pinEnd: t('blogEdit.pinEnd'),
    requireConfirmation: t('blogEdit.requireConfirmation'),
    allowComments: t('blogEdit.optionComment'),
    allowLikes: t('blogEdit.optionLike'),
    attachment: { label: t('blogEdit.attachment'), show: attachmentName },
  };
  const fieldMerge = useConflictMerge(ed, fields);
  const [message, setMessage] = useState<string | null>(null);
  const [bodyTaken, setBodyTaken] = useState(false);
  const [clash, setClash] = useState<BodyClash | null>(null);
  /** The body the form stands on (as loaded, then as saved elsewhere): the merge's base. */
  const baseBody = useRef<PostDocument | null>(null);
  const loaded = useCallback((doc: PostDocument | null) => {
    baseBody.current = doc;
  }, []);

  /** False when the saved post could not be read (the caller then says the conflict on its own). */
  const recover = async (refusal: string, mine: PostDocument): Promise<boolean> => {
    const r = await apollo
      .query({ query: BlogPostEditQuery, variables: { id: postId }, fetchPolicy: 'network-only' })
      .catch(() => null);
    const latest = r?.data?.blogPost;
    if (!latest) return false;
    fieldMerge.merge(formOf(latest));
    const base = baseBody.current ?? { blocks: [] };
    const theirs = (latest.content as PostDocument | null) ?? { blocks: [] };
    baseBody.current = theirs;
    const theyChanged = !sameBody(theirs, base);
    const iChanged = !sameBody(mine, base);
    setBodyTaken(theyChanged && !iChanged);
    if (theyChanged && !iChanged) await body.current?.replace(theirs);
    setClash(
      theyChanged && iChanged && !sameBody(mine, theirs)
        ? { base, mine, theirs, theirsHtml: latest.contentHtml, choice: 'mine' }
        : null,
    );
    setMessage(refusal);
    return true;
  };

  /** Puts the chosen body in the editor; what was typed since the last choice counts as the writer's own. */
  const chooseBody = async (choice: BodyChoice) => {
    if (!clash || !body.current) return;
    setClash({ ...clash, choice }); // the choice shows at once; the editor follows
    const now = await body.current.save();
    const applied =
      clash.choice === 'mine'
        ? clash.mine
        : clash.choice === 'theirs'
          ? clash.theirs
          : mergedBody(clash.base, clash.mine, clash.theirs);
    const mine = clash.choice !== 'theirs' && !sameBody(now, applied) ? now : clash.mine;
    const next =
      choice === 'mine' ? mine : choice === 'theirs' ? clash.theirs : mergedBody(clash.base, mine, clash.theirs);
    await body.current.replace(next);
    setClash({ ...clash, mine, choice });
  };

  return {
    /** The refusal's message while a conflict is being resolved. */
    message,
    bodyTaken,
    clash,
    chooseBody,
    recover,
    fieldPanel: fieldMerge.panel,
    /** The post as loaded: the base of a later merge (stable). */
    loaded,
    /** The body the form stands on now. */
    base: () => baseBody.current,
    clear: () => {
      setMessage(null);
      setClash(null);
      setBodyTaken(false);
      fieldMerge.clear();
    },
  };
}

export type PostConflict = ReturnType<typeof usePostConflict>;
