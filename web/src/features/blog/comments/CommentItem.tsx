import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { ActionList, ActionMenu, Button, IconButton } from '@primer/react';
import { KebabHorizontalIcon, PaperclipIcon, ReplyIcon, TrashIcon } from '@primer/octicons-react';
import { displayDateTime } from '../../../components/master-options';
import { readError } from '../../../components/gql-errors';
import type { ConfirmRequest } from '../../../components/ConfirmDialog';
import { toast } from '../../../components/Toast';
import type { BlogCommentFieldsFragment } from '../../../gql/graphql';
import { AuthorBadge } from '../BlogCard';
import type { PreviewFile } from './AttachmentPreview';
import { CommentComposer } from './CommentComposer';
import { DeleteBlogCommentMutation } from './operations';
import { fill, type CommentText } from './text';
import styles from './comments.module.css';

export type CommentView = BlogCommentFieldsFragment & { replies?: BlogCommentFieldsFragment[] };

/**
 * One comment with its replies (one level: a reply has no reply button, the server would attach it to
 * the same comment anyway). The ⋯ menu with 削除 is there only where the server says the viewer may
 * delete (the comment's author or the post's author); the server checks again.
 */
export function CommentItem({
  comment,
  postId,
  open,
  text,
  confirm,
  onPreview,
  onChanged,
}: {
  comment: CommentView;
  postId: number;
  /** The post takes comments: replies may be written. */
  open: boolean;
  text: CommentText;
  confirm(req: ConfirmRequest): Promise<boolean>;
  onPreview(file: PreviewFile): void;
  onChanged(): void;
}) {
  const [replying, setReplying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [remove] = useMutation(DeleteBlogCommentMutation);
  const reply = comment.parentId !== null;
  const name = comment.author.name;

  const del = async () => {
    const ok = await confirm({ title: text.deleteTitle, body: reply ? text.deleteBodyReply : text.deleteBody, confirmLabel: text.delete, cancelLabel: text.cancel, danger: true });
    if (!ok) return;
    setError(null);
    try {
      await remove({ variables: { id: comment.id } });
      toast.success(text.deleted);
      onChanged();
    } catch (e) {
      const err = readError(e);
      setError(err.code === 'FORBIDDEN' ? text.deleteForbidden : err.code === 'NOT_FOUND' ? err.message : text.deleteFailed);
    }
  };

  return (
    <li className={reply ? styles.reply : styles.comment} data-testid={reply ? 'blog-reply' : 'blog-comment'} data-comment-id={comment.id}>
      <div className={styles.commentHead}>
        <AuthorBadge name={name} />
        <time className={styles.muted} dateTime={comment.createdAt}>
          {displayDateTime(comment.createdAt)}
        </time>
        {comment.canDelete && (
          <ActionMenu>
            <ActionMenu.Anchor>
              <IconButton
                icon={KebabHorizontalIcon}
                aria-label={fill(text.actions, { name })}
                variant="invisible"
                size="small"
                className={styles.menu}
                data-testid="blog-comment-menu"
              />
            </ActionMenu.Anchor>
            <ActionMenu.Overlay width="auto" align="end">
              <ActionList>
                <ActionList.Item variant="danger" onSelect={() => void del()}>
                  <ActionList.LeadingVisual>
                    <TrashIcon />
                  </ActionList.LeadingVisual>
                  {text.delete}
                </ActionList.Item>
              </ActionList>
            </ActionMenu.Overlay>
          </ActionMenu>
        )}
      </div>
      <p className={styles.commentText} data-testid="blog-comment-text">
        {comment.content}
      </p>
      {comment.attachment && (
        <button type="button" className={styles.attachment} onClick={() => onPreview(comment.attachment!)} data-testid="blog-comment-attachment">
          {comment.attachment.thumbnailUrl ? <img src={comment.attachment.thumbnailUrl} alt="" className={styles.attachmentThumb} /> : <PaperclipIcon size={14} />}
          <span>{comment.attachment.name}</span>
        </button>
      )}
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {!reply && open && (
        <Button size="small" variant="invisible" leadingVisual={ReplyIcon} onClick={() => setReplying((r) => !r)} aria-expanded={replying} className={styles.replyButton}>
          {replying ? text.cancelReply : text.reply}
        </Button>
      )}
      {!!comment.replies?.length && (
        <ul className={styles.replies}>
          {comment.replies.map((r) => (
            <CommentItem key={r.id} comment={r} postId={postId} open={open} text={text} confirm={confirm} onPreview={onPreview} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {replying && open && (
        <CommentComposer
          postId={postId}
          parentId={comment.id}
          text={text}
          label={fill(text.replyLabel, { name })}
          placeholder={text.replyPlaceholder}
          sendOnEnter={false}
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
