import { useCallback, useEffect, useRef, useState } from 'react';
import { useApolloClient } from '@apollo/client/react';
import { Button, Dialog, Spinner } from '@primer/react';
import { useConfirm } from '../../../components/ConfirmDialog';
import { displayDate } from '../../../components/master-options';
import { AuthorBadge, type BlogCardPost } from '../BlogCard';
import { AttachmentPreview, type PreviewFile } from './AttachmentPreview';
import { CommentComposer } from './CommentComposer';
import { CommentItem, type CommentView } from './CommentItem';
import { useCommentThread } from '../../../components/comments/use-comment-thread';
import { BlogCommentsQuery } from './operations';
import { useCommentText } from './comments.i18n';
import styles from './comments.module.css';

/**
 * コメント: the post (title, author, date), its comments with their replies, a page at a time
 * (もっと見る), and the main box — or, where the author turned comments off, a short note instead of
 * any box. Loaded lazily (its own chunk). `revision` goes up whenever the live feed reports
 * COMMENTS_CHANGED for this post (another browser commented, replied or deleted): the pages shown
 * are read again. After the viewer's own change they are read again at once, and `onCount` hands
 * the new total to the cards.
 */
export default function CommentsDialog({
  post,
  revision,
  onClose,
  onCount,
}: {
  post: BlogCardPost;
  revision: number;
  onClose(): void;
  onCount(count: number): void;
}) {
  const text = useCommentText();
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [preview, setPreview] = useState<PreviewFile | null>(null);
  const client = useApolloClient();
  const readPage = useCallback(
    async (after: string | null, limit: number) => {
      const { data } = await client.query({
        query: BlogCommentsQuery,
        variables: { postId: post.id, after, limit },
        fetchPolicy: 'no-cache',
      });
      return data!.blogComments;
    },
    [client, post.id],
  );
  const { thread, failed, loadingMore, more, reload } = useCommentThread<CommentView>(readPage, onCount);
  const comments = thread?.items;
  // Only a new revision reads again.
  const latestReload = useRef(reload);
  latestReload.current = reload;
  useEffect(() => {
    if (revision > 0) latestReload.current();
  }, [revision]);

  return (
    <Dialog
      title={text('commentsOf', { title: post.title })}
      onClose={onClose}
      width="large"
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: text('close'), onClick: onClose }]}
    >
      <div className={styles.dialog} data-testid="blog-comments">
        <div className={styles.post}>
          <AuthorBadge name={post.author.name} id={post.author.id} />
          <time className={styles.muted} dateTime={post.publishStart}>
            {displayDate(post.publishStart)}
          </time>
        </div>
        <section className={styles.thread} aria-label={text('comments')} data-testid="blog-comment-list">
          {!failed && !comments && <Spinner size="medium" srText={text('comments')} />}
          {failed && (
            <div className={styles.loadFailed} role="alert">
              <span>{text('loadFailed')}</span>
              <Button size="small" onClick={reload}>
                {text('retry')}
              </Button>
            </div>
          )}
          {comments && comments.length === 0 && <p className={styles.muted}>{text('noComments')}</p>}
          {comments && comments.length > 0 && (
            <ul className={styles.list}>
              {comments.map((c) => (
                <CommentItem
                  key={c.id}
                  comment={c}
                  postId={post.id}
                  open={post.allowComments}
                  text={text}
                  confirm={confirm}
                  onPreview={setPreview}
                  onChanged={reload}
                  revision={revision}
                />
              ))}
            </ul>
          )}
          {thread?.nextCursor && (
            <Button
              size="small"
              block
              onClick={more}
              disabled={loadingMore}
              className={styles.more}
              data-testid="blog-comments-more"
            >
              {loadingMore ? text('loading') : text('moreComments')}
            </Button>
          )}
        </section>
        {post.allowComments ? (
          <CommentComposer
            postId={post.id}
            parentId={null}
            text={text}
            label={text('commentLabel')}
            placeholder={text('placeholder')}
            onSent={reload}
          />
        ) : (
          <p className={styles.closed} data-testid="blog-comments-closed">
            {text('closed')}
          </p>
        )}
      </div>
      {preview && <AttachmentPreview file={preview} text={text} onClose={() => setPreview(null)} />}
      {confirmDialog}
    </Dialog>
  );
}
