import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import { Button, Spinner, Textarea } from '@primer/react';
import { PaperAirplaneIcon, PencilIcon, ReplyIcon, TrashIcon } from '@primer/octicons-react';
import { useCatalog, useT } from '../../app/i18n';
import { Avatar } from '../../components/Avatar';
import { CommentEditor, EditedMark } from '../../components/comments/CommentEditor';
import { useReplies } from '../../components/comments/use-replies';
import { useCommentThread } from '../../components/comments/use-comment-thread';
import { useConfirm, type ConfirmRequest } from '../../components/ConfirmDialog';
import { readError } from '../../components/gql-errors';
import { displayDateTime } from '../../components/master-options';
import { toast } from '../../components/Toast';
import type { ProfileCommentFieldsFragment } from '../../gql/graphql';
import {
  AddProfileCommentMutation,
  DeleteProfileCommentMutation,
  EditProfileCommentMutation,
  ProfileCommentRepliesQuery,
  ProfileCommentsQuery,
} from './operations';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';
import { useEnterToSend } from '../../components/comments/enter-to-send';
import { EnterHint } from '../../components/comments/EnterHint';

type Comment = ProfileCommentFieldsFragment & { replies?: ProfileCommentFieldsFragment[]; replyCount?: number };
type Text = ReturnType<typeof useCatalog<keyof (typeof PROFILE)['ja']>>;

/**
 * A profile's comments with one level of replies, a page at a time (the shared thread paging):
 * anyone signed in writes; the comment's author or the profile's owner deletes (the server says who
 * in canDelete and checks again). `revision` goes up when the live feed reports a change to this
 * profile: the pages shown are read again.
 */
export function ProfileComments({
  profileId,
  revision,
  onCount,
}: {
  profileId: number;
  revision: number;
  onCount(count: number): void;
}) {
  const tp = useCatalog(PROFILE);
  const client = useApolloClient();
  const { confirm, dialog } = useConfirm();
  const readPage = useCallback(
    async (after: string | null, limit: number) => {
      const { data } = await client.query({
        query: ProfileCommentsQuery,
        variables: { profileId, after, limit },
        fetchPolicy: 'no-cache',
      });
      return data!.profileComments;
    },
    [client, profileId],
  );
  const { thread, failed, loadingMore, more, reload } = useCommentThread<Comment>(readPage, onCount);
  const latestReload = useRef(reload);
  latestReload.current = reload;
  useEffect(() => {
    if (revision > 0) latestReload.current();
  }, [revision]);
  const comments = thread?.items;

  return (
    <section className={styles.comments} aria-label={tp('comments')} data-testid="profile-comment-list">
      {!failed && !comments && <Spinner size="small" srText={tp('loading')} />}
      {failed && (
        <div className={styles.failed} role="alert">
          <span>{tp('commentsLoadFailed')}</span>
          <Button size="small" onClick={reload}>
            {tp('retry')}
          </Button>
        </div>
      )}
      {comments && comments.length === 0 && <p className={styles.muted}>{tp('noComments')}</p>}
      {comments && comments.length > 0 && (
        <ul className={styles.commentList}>
          {comments.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              profileId={profileId}
              tp={tp}
              confirm={confirm}
              onChanged={reload}
              revision={revision}
            />
          ))}
        </ul>
      )}
      {thread?.nextCursor && (
        <Button size="small" block onClick={more} disabled={loadingMore}>
          {loadingMore ? tp('loading') : tp('moreComments')}
        </Button>
      )}
      <Composer profileId={profileId} parentId={null} tp={tp} label={tp('comments')} onSent={reload} />
      {dialog}
    </section>
  );
}

function CommentItem({
  comment,
  profileId,
  tp,
  confirm,
  onChanged,
  revision = 0,
}: {
  comment: Comment;
  profileId: number;
  tp: Text;
  confirm(r: ConfirmRequest): Promise<boolean>;
  onChanged(): void;
  /** The thread's live revision: opened replies are read again on each. */
  revision?: number;
}) {
  const t = useT();
  const [replying, setReplying] = useState(false);
  const [editing, setEditing] = useState(false);
  const [remove] = useMutation(DeleteProfileCommentMutation);
  const [edit] = useMutation(EditProfileCommentMutation);
  const reply = comment.parentId !== null;
  const { replies, remaining, loading, moreReplies } = useProfileReplies(comment, revision);
  const del = async () => {
    if (
      !(await confirm({
        title: tp('deleteTitle'),
        body: tp('deleteBody'),
        confirmLabel: tp('delete'),
        cancelLabel: tp('cancel'),
        danger: true,
      }))
    )
      return;
    try {
      await remove({ variables: { id: comment.id } });
      toast.success(tp('deleted'));
      onChanged();
    } catch (e) {
      const err = readError(e);
      toast.error(err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN' ? err.message : tp('deleteFailed'));
    }
  };
  return (
    <li className={reply ? styles.reply : styles.comment} data-testid={reply ? 'profile-reply' : 'profile-comment'}>
      <div className={styles.commentHead}>
        <Avatar name={comment.author.name} employeeId={comment.author.id} size={24} />
        <span className={styles.commentAuthor}>{comment.author.name}</span>
        <time className={styles.muted} dateTime={comment.createdAt}>
          {displayDateTime(comment.createdAt)}
        </time>
        {comment.editedAt && <EditedMark at={comment.editedAt} format={displayDateTime} />}
      </div>
      {editing ? (
        <CommentEditor
          content={comment.content}
          reply={reply}
          save={(content) => edit({ variables: { id: comment.id, content } })}
          testId="profile-comment-editor"
          onDone={(saved) => {
            setEditing(false);
            if (saved) onChanged();
          }}
        />
      ) : (
        <p className={styles.commentText}>{comment.content}</p>
      )}
      <div className={styles.commentActions}>
        {!reply && (
          <Button
            size="small"
            variant="invisible"
            leadingVisual={ReplyIcon}
            onClick={() => setReplying((r) => !r)}
            aria-expanded={replying}
          >
            {replying ? tp('cancelReply') : tp('reply')}
          </Button>
        )}
        {comment.canEdit && !editing && (
          <Button
            size="small"
            variant="invisible"
            leadingVisual={PencilIcon}
            onClick={() => setEditing(true)}
            data-testid="profile-comment-edit"
          >
            {t('comments.edit')}
          </Button>
        )}
        {comment.canDelete && (
          <Button
            size="small"
            variant="invisible"
            leadingVisual={TrashIcon}
            onClick={() => void del()}
            data-testid="profile-comment-delete"
          >
            {tp('delete')}
          </Button>
        )}
      </div>
      {replies.length > 0 && (
        <ul className={styles.replies}>
          {replies.map((r) => (
            <CommentItem key={r.id} comment={r} profileId={profileId} tp={tp} confirm={confirm} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {remaining > 0 && (
        <Button size="small" variant="invisible" onClick={moreReplies} disabled={loading}>
          {loading ? tp('loading') : tp('moreReplies', { count: remaining })}
        </Button>
      )}
      {replying && (
        <Composer
          profileId={profileId}
          parentId={comment.id}
          tp={tp}
          label={tp('replyTo', { name: comment.author.name })}
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

/** A comment's replies, read through the profile's replies query. */
function useProfileReplies(comment: Comment, revision: number) {
  const client = useApolloClient();
  return useReplies<ProfileCommentFieldsFragment>(
    comment.replies ?? [],
    comment.replyCount ?? 0,
    revision,
    async (after, limit) => {
      const { data } = await client.query({
        query: ProfileCommentRepliesQuery,
        variables: { commentId: comment.id, after, limit },
        fetchPolicy: 'no-cache',
      });
      return data!.profileCommentReplies;
    },
  );
}

function Composer({
  profileId,
  parentId,
  tp,
  label,
  autoFocus,
  onSent,
}: {
  profileId: number;
  parentId: number | null;
  tp: Text;
  label: string;
  autoFocus?: boolean;
  onSent(): void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [add, { loading }] = useMutation(AddProfileCommentMutation);
  const reply = parentId !== null;
  const send = async () => {
    if (loading) return;
    if (!value.trim()) return setError(reply ? tp('blankReply') : tp('blankComment'));
    setError(null);
    try {
      await add({ variables: { input: { profileId, content: value, parentId } } });
      setValue('');
      toast.success(reply ? tp('replied') : tp('sent'));
      onSent();
    } catch (e) {
      const err = readError(e);
      setError(
        err.code === 'BAD_USER_INPUT' || err.code === 'NOT_FOUND' || err.code === 'TOO_MANY_REQUESTS'
          ? err.message
          : tp('sendFailed'),
      );
    }
  };
  const enterToSend = useEnterToSend(() => void send());
  const hintId = useId();
  return (
    <div className={styles.composer} data-testid={reply ? 'profile-reply-box' : 'profile-comment-box'}>
      <Textarea
        value={value}
        block
        rows={reply ? 2 : 3}
        resize="vertical"
        aria-label={label}
        placeholder={reply ? tp('replyPlaceholder') : tp('commentPlaceholder')}
        autoFocus={autoFocus}
        validationStatus={error ? 'error' : undefined}
        onChange={(e) => {
          setValue(e.target.value);
          if (error) setError(null);
        }}
        aria-describedby={hintId}
        {...enterToSend}
      />
      <EnterHint id={hintId} />
      <div className={styles.composerBar}>
        {error && (
          <span className={styles.error} role="alert">
            {error}
          </span>
        )}
        <Button
          size="small"
          variant="primary"
          leadingVisual={PaperAirplaneIcon}
          onClick={() => void send()}
          loading={loading}
          data-testid="profile-comment-send"
        >
          {tp('send')}
        </Button>
      </div>
    </div>
  );
}
