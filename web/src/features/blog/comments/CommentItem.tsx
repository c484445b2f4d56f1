import { useState } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { ActionList, ActionMenu, Button, IconButton } from '@primer/react';
import { KebabHorizontalIcon, PaperclipIcon, PencilIcon, ReplyIcon, TrashIcon } from '@primer/octicons-react';
import { useT } from '../../../app/i18n';
import { displayDateTime } from '../../../components/master-options';
import { readError } from '../../../components/gql-errors';
import type { ConfirmRequest } from '../../../components/ConfirmDialog';
import { toast } from '../../../components/Toast';
import type { BlogCommentFieldsFragment } from '../../../gql/graphql';
import { AuthorBadge } from '../BlogCard';
import type { PreviewFile } from './AttachmentPreview';
import { CommentComposer } from './CommentComposer';
import { CommentEditor, EditedMark } from '../../../components/comments/CommentEditor';
import { BlogCommentRepliesQuery, DeleteBlogCommentMutation, EditBlogCommentMutation } from './operations';
import { useReplies } from '../../../components/comments/use-replies';
import { type CommentText } from './comments.i18n';
import styles from './comments.module.css';
import { FileName } from '../../../components/FileName';
import { MentionedText } from '../../../components/mentions/MentionedText';
import { useBlogMentions } from '../mentions';

export type CommentView = BlogCommentFieldsFragment & { replies?: BlogCommentFieldsFragment[]; replyCount?: number };

/**
 * One comment with its replies (one level: a reply has no reply button, the server would attach it to
 * the same comment anyway). The thread's page brings the first replies; 返信をさらに表示 reads the rest
 * a page at a time, and they are read again when the reply count changes. The ⋯ menu has 編集 where
 * the server says the viewer may edit (the comment's author) and 削除 where they may delete (the
 * comment's author or the post's author); the server checks again. An edited comment says so.
 */
export function CommentItem({
  comment,
  postId,
  open,
  text,
  confirm,
  onPreview,
  onChanged,
  revision = 0,
}: {
  comment: CommentView;
  postId: number;
  /** The post takes comments: replies may be written. */
  open: boolean;
  text: CommentText;
  confirm(req: ConfirmRequest): Promise<boolean>;
  onPreview(file: PreviewFile): void;
  onChanged(): void;
  /** The dialog's live revision: opened replies are read again on each. */
  revision?: number;
}) {
  const t = useT();
  const [replying, setReplying] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [remove] = useMutation(DeleteBlogCommentMutation);
  const [edit] = useMutation(EditBlogCommentMutation);
  const mentionSearch = useBlogMentions({ postId });
  const reply = comment.parentId !== null;
  const name = comment.author.name;
  const { replies, remaining, loading: loadingReplies, moreReplies } = useBlogReplies(comment, revision);

  const del = async () => {
    const ok = await confirm({
      title: text('deleteTitle'),
      body: reply ? text('deleteBodyReply') : text('deleteBody'),
      confirmLabel: text('delete'),
      cancelLabel: text('cancel'),
      danger: true,
    });
    if (!ok) return;
    setError(null);
    try {
      await remove({ variables: { id: comment.id } });
      toast.success(text('deleted'));
      onChanged();
    } catch (e) {
      const err = readError(e);
      setError(
        err.code === 'FORBIDDEN'
          ? text('deleteForbidden')
          : err.code === 'NOT_FOUND'
            ? err.message
            : text('deleteFailed'),
      );
    }
  };

  return (
    <li
      className={reply ? styles.reply : styles.comment}
      data-testid={reply ? 'blog-reply' : 'blog-comment'}
      data-comment-id={comment.id}
    >
      <div className={styles.commentHead}>
        <AuthorBadge name={name} id={comment.author.id} />
        <time className={styles.muted} dateTime={comment.createdAt}>
          {displayDateTime(comment.createdAt)}
        </time>
        {comment.editedAt && <EditedMark at={comment.editedAt} format={displayDateTime} />}
        {(comment.canDelete || comment.canEdit) && (
          <ActionMenu>
            <ActionMenu.Anchor>
              <IconButton
                icon={KebabHorizontalIcon}
                aria-label={text('actions', { name })}
                variant="invisible"
                size="small"
                className={styles.menu}
                data-testid="blog-comment-menu"
              />
            </ActionMenu.Anchor>
            <ActionMenu.Overlay width="auto" align="end">
              <ActionList>
                {comment.canEdit && open && (
                  <ActionList.Item onSelect={() => setEditing(true)} data-testid="blog-comment-edit">
                    <ActionList.LeadingVisual>
                      <PencilIcon />
                    </ActionList.LeadingVisual>
                    {t('comments.edit')}
                  </ActionList.Item>
                )}
                {comment.canDelete && (
                  <ActionList.Item variant="danger" onSelect={() => void del()}>
                    <ActionList.LeadingVisual>
                      <TrashIcon />
                    </ActionList.LeadingVisual>
                    {text('delete')}
                  </ActionList.Item>
                )}
              </ActionList>
            </ActionMenu.Overlay>
          </ActionMenu>
        )}
      </div>
      {editing ? (
        <CommentEditor
          content={comment.content}
          reply={reply}
          save={(content, mentionIds) => edit({ variables: { id: comment.id, content, mentionIds } })}
          mentions={{ search: mentionSearch, current: comment.mentions }}
          testId="blog-comment-editor"
          onDone={(saved) => {
            setEditing(false);
            if (saved) onChanged();
          }}
        />
      ) : (
        <p className={styles.commentText} data-testid="blog-comment-text">
          <MentionedText text={comment.content} mentions={comment.mentions} />
        </p>
      )}
      {comment.attachment && (
        <button
          type="button"
          className={styles.attachment}
          onClick={() => onPreview(comment.attachment!)}
          data-testid="blog-comment-attachment"
        >
          {comment.attachment.thumbnailUrl ? (
            <img src={comment.attachment.thumbnailUrl} alt="" className={styles.attachmentThumb} />
          ) : (
            <PaperclipIcon size={14} />
          )}
          <FileName name={comment.attachment.name} />
        </button>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {!reply && open && (
        <Button
          size="small"
          variant="invisible"
          leadingVisual={ReplyIcon}
          onClick={() => setReplying((r) => !r)}
          aria-expanded={replying}
          className={styles.replyButton}
        >
          {replying ? text('cancelReply') : text('reply')}
        </Button>
      )}
      {replies.length > 0 && (
        <ul className={styles.replies}>
          {replies.map((r) => (
            <CommentItem
              key={r.id}
              comment={r}
              postId={postId}
              open={open}
              text={text}
              confirm={confirm}
              onPreview={onPreview}
              onChanged={onChanged}
            />
          ))}
        </ul>
      )}
      {remaining > 0 && (
        <Button
          size="small"
          variant="invisible"
          onClick={moreReplies}
          disabled={loadingReplies}
          className={styles.moreReplies}
          data-testid="blog-replies-more"
        >
          {loadingReplies ? text('loading') : text('moreReplies', { count: remaining })}
        </Button>
      )}
      {replying && open && (
        <CommentComposer
          postId={postId}
          parentId={comment.id}
          text={text}
          label={text('replyLabel', { name })}
          placeholder={text('replyPlaceholder')}
          autoFocus
          onSent={() => {
            setReplying(false);
            onChanged();
          }}
        />
      )}
    </li>
  );
}

/** A comment's replies, read through the blog's replies query. */
function useBlogReplies(comment: CommentView, revision: number) {
  const client = useApolloClient();
  return useReplies<BlogCommentFieldsFragment>(
    comment.replies ?? [],
    comment.replyCount ?? 0,
    revision,
    async (after, limit) => {
      const { data } = await client.query({
        query: BlogCommentRepliesQuery,
        variables: { commentId: comment.id, after, limit },
        fetchPolicy: 'no-cache',
      });
      return data!.blogCommentReplies;
    },
  );
}
