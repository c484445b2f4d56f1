import { useRef } from 'react';
import { useMutation } from '@apollo/client/react';
import { Tooltip } from '@primer/react';
import { CommentIcon, HeartFillIcon, HeartIcon, StarFillIcon, StarIcon } from '@primer/octicons-react';
import { defineCatalog, useCatalog } from '../../app/i18n';
import { readError } from '../../components/gql-errors';
import { toast } from '../../components/Toast';
import type { BlogCardPost } from './BlogCard';
import { LikeBlogPostMutation, SaveBlogPostMutation } from './operations';
import styles from './blog.module.css';

/**
 * The blog's engagement words live in the blog chunk, not in the first chunk's catalogs (the initial
 * JS budget): only the feed and its dialog use them.
 */
const BLOG = defineCatalog({
  ja: {
    comments: 'コメント {count} 件',
    like: 'いいね',
    unlike: 'いいねを取り消す',
    noLikers: 'まだいいねはありません',
    moreLikers: '{names} ほか {count} 人',
    save: '保存',
    unsave: '保存を解除',
    newLabel: 'New!',
    likeRefused: 'この投稿にはいいねできません。',
    likeFailed: 'いいねを保存できませんでした。時間をおいて再度お試しください。',
    saveFailed: '保存の設定を変更できませんでした。時間をおいて再度お試しください。',
    scopeSaved: '保存したブログ',
    emptySaved: '保存したブログはありません。カードの星で保存できます。',
    linkedMissing: 'この投稿は表示できません（削除されたか、閲覧できなくなりました）。',
  },
  en: {
    comments: '{count} comments',
    like: 'Like',
    unlike: 'Remove like',
    noLikers: 'No likes yet',
    moreLikers: '{names} and {count} more',
    save: 'Save',
    unsave: 'Unsave',
    newLabel: 'New!',
    likeRefused: 'This post does not accept likes.',
    likeFailed: 'The like could not be saved. Please try again later.',
    saveFailed: 'The save could not be changed. Please try again later.',
    scopeSaved: 'Saved blogs',
    emptySaved: 'No saved blogs. Save a post with the star on its card.',
    linkedMissing: 'This post cannot be shown (it was deleted or you may no longer see it).',
  },
});

export function useBlogText() {
  return useCatalog(BLOG);
}

/** The red New! next to a title while the viewer has not opened the post. */
export function NewLabel({ post }: { post: BlogCardPost }) {
  const text = useBlogText();
  if (!post.isNew) return null;
  return (
    <span className={styles.newLabel} data-testid="blog-new">
      {text('newLabel')}
    </span>
  );
}

/** Clicks on the bar's buttons are not clicks on the card (which open the dialog or the page). */
const stop = (e: React.SyntheticEvent) => e.stopPropagation();

/**
 * The comment icon with the count (it opens the comments dialog), the heart (where the author allows
 * likes; its tooltip names the likers) and the star of one post.
 * Each toggle shows its new state at once; the server's answer (the post as it now is) replaces it
 * through `onChanged`, and a failure puts the last known post back with one toast.
 */
export function EngagementBar({
  post,
  onChanged,
  onComments,
}: {
  post: BlogCardPost;
  onChanged(p: BlogCardPost): void;
  onComments(p: BlogCardPost): void;
}) {
  const text = useBlogText();
  const [like] = useMutation(LikeBlogPostMutation);
  const [save] = useMutation(SaveBlogPostMutation);
  // One toggle at a time; the buttons stay enabled (a disabled button would drop focus and its tooltip).
  const busy = useRef(false);

  const toggleLike = async () => {
    if (busy.current) return;
    const liked = !post.likedByMe;
    busy.current = true;
    onChanged({ ...post, likedByMe: liked, likeCount: Math.max(0, post.likeCount + (liked ? 1 : -1)) });
    try {
      const { data } = await like({ variables: { id: post.id, liked } });
      onChanged(data?.likeBlogPost ?? post);
    } catch (err) {
      onChanged(post);
      toast.error(readError(err).code === 'FORBIDDEN' ? text('likeRefused') : text('likeFailed'));
    } finally {
      busy.current = false;
    }
  };
  const toggleSave = async () => {
    if (busy.current) return;
    const saved = !post.saved;
    busy.current = true;
    onChanged({ ...post, saved });
    try {
      const { data } = await save({ variables: { id: post.id, saved } });
      onChanged(data?.saveBlogPost ?? post);
    } catch {
      onChanged(post);
      toast.error(text('saveFailed'));
    } finally {
      busy.current = false;
    }
  };

  // The card carries the first likers only (LIKERS_SHOWN on the server); the rest are counted.
  const names = post.likers.map((l) => l.name).join('、');
  const more = post.likeCount - post.likers.length;
  const likers = !names ? text('noLikers') : more > 0 ? text('moreLikers', { names, count: more }) : names;
  return (
    <div className={styles.engagement} onClick={stop} onDoubleClick={stop} onKeyDown={stop} role="group">
      <button
        type="button"
        className={styles.engageButton}
        aria-label={text('comments', { count: post.commentCount })}
        title={text('comments', { count: post.commentCount })}
        aria-haspopup="dialog"
        onClick={() => onComments(post)}
        data-testid="blog-comments-open"
      >
        <CommentIcon size={16} />
        <span data-testid="blog-comment-count">{post.commentCount}</span>
      </button>
      {post.allowLikes && (
        <Tooltip text={likers} direction="n" type="description">
          <button
            type="button"
            className={`${styles.engageButton} ${post.likedByMe ? styles.liked : ''}`}
            aria-pressed={post.likedByMe}
            aria-label={`${post.likedByMe ? text('unlike') : text('like')} ${post.likeCount}`}
            onClick={() => void toggleLike()}
            data-testid="blog-like"
          >
            {post.likedByMe ? <HeartFillIcon size={16} /> : <HeartIcon size={16} />}
            <span data-testid="blog-like-count">{post.likeCount}</span>
          </button>
        </Tooltip>
      )}
      <button
        type="button"
        className={`${styles.engageButton} ${post.saved ? styles.saved : ''}`}
        aria-pressed={post.saved}
        aria-label={post.saved ? text('unsave') : text('save')}
        title={post.saved ? text('unsave') : text('save')}
        onClick={() => void toggleSave()}
        data-testid="blog-save"
      >
        {post.saved ? <StarFillIcon size={16} /> : <StarIcon size={16} />}
      </button>
    </div>
  );
}
