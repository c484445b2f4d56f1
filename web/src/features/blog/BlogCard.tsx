import { Avatar } from '../../components/Avatar';
import { Label, Link } from '@primer/react';
import { FileIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import { displayDate } from '../../components/master-options';
import type { BlogCardFieldsFragment } from '../../gql/graphql';
import { legibleTextColor } from './card-helpers';
import { EngagementBar, NewLabel } from './engagement';
import { ReadingBar } from './reading';
import styles from './blog.module.css';
import { RichTextView } from '../../components/rich-text/RichTextView';
import { FileName } from '../../components/FileName';

export type BlogCardPost = BlogCardFieldsFragment;

export function AuthorBadge({ name, id }: { name: string; id?: number | null }) {
  return (
    <span className={styles.author}>
      <Avatar name={name} employeeId={id} size={28} />
      <span className={styles.authorName}>{name}</span>
    </span>
  );
}

export function CategoryLabel({ category }: { category: BlogCardPost['category'] }) {
  if (!category) return null;
  return (
    <span
      className={styles.category}
      style={{ background: category.color, color: legibleTextColor(category.color) }}
      data-testid="blog-category"
    >
      {category.name}
    </span>
  );
}

/** 公開予定 / 公開終了 / 下書き: shown only on posts the API sends with such a state (to their author and admins). */
export function StateLabel({ post }: { post: Pick<BlogCardPost, 'state' | 'stateLabel'> }) {
  if (post.state === 'PUBLISHED') return null;
  return (
    <Label variant={post.state === 'DRAFT' ? 'secondary' : 'attention'} data-testid="blog-state">
      {post.stateLabel}
    </Label>
  );
}

/** The post's file: the thumbnail for images, otherwise a link (PDF or other file) to the served URL. */
export function AttachmentView({ attachment, large }: { attachment: BlogCardPost['attachment']; large?: boolean }) {
  const t = useT();
  if (!attachment) return null;
  const stop = (e: React.MouseEvent) => e.stopPropagation();
  if (attachment.type.startsWith('image/')) {
    // On a card the picture is part of the card (a click opens the dialog); the dialog links the full file.
    if (!large)
      return (
        <img
          src={attachment.thumbnailUrl ?? attachment.url}
          alt={attachment.name}
          className={styles.thumb}
          loading="lazy"
        />
      );
    return (
      <a href={attachment.url} target="_blank" rel="noopener noreferrer" className={styles.imageLink}>
        <img src={attachment.url} alt={attachment.name} className={styles.imageLarge} />
      </a>
    );
  }
  return (
    <Link
      href={attachment.url}
      target="_blank"
      rel="noopener noreferrer"
      onClick={stop}
      onDoubleClick={stop}
      className={styles.fileLink}
      data-testid="blog-file-link"
    >
      <FileIcon size={16} />
      <span className={styles.fileText}>
        {attachment.type === 'application/pdf' ? t('blog.pdfLink') : t('blog.fileLink')}{' '}
        <FileName name={attachment.name} />
      </span>
    </Link>
  );
}

/**
 * One post in the feed. contentHtml is the server's allow-list-sanitized rendering of the Editor.js
 * document (the only HTML this screen injects).
 */
export function BlogCard({
  post,
  onClick,
  onDoubleClick,
  onChanged,
  onComments,
}: {
  post: BlogCardPost;
  onClick(p: BlogCardPost): void;
  onDoubleClick?(p: BlogCardPost): void;
  /** The post after a like or save (first as it will be, then as the server answered). */
  onChanged(p: BlogCardPost): void;
  /** The comment icon: opens the comments dialog. */
  onComments(p: BlogCardPost): void;
}) {
  return (
    <article
      className={styles.card}
      data-testid="blog-card"
      tabIndex={0}
      aria-label={post.title}
      onClick={() => onClick(post)}
      onDoubleClick={() => onDoubleClick?.(post)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onClick(post);
      }}
    >
      <div className={styles.cardHead}>
        <AuthorBadge name={post.author.name} id={post.author.id} />
        <StateLabel post={post} />
      </div>
      {/* New! beside the title, outside the heading: the heading names the post alone. */}
      <div className={styles.titleRow}>
        <h2 className={styles.cardTitle} data-testid="blog-card-title">
          {post.title}
        </h2>
        <NewLabel post={post} />
      </div>
      <div className={styles.meta}>
        <CategoryLabel category={post.category} />
        <time dateTime={post.publishStart}>{displayDate(post.publishStart)}</time>
      </div>
      <AttachmentView attachment={post.attachment} />
      <RichTextView html={post.contentHtml} className={styles.clamped} />
      <ReadingBar post={post} onChanged={onChanged} />
      <EngagementBar post={post} onChanged={onChanged} onComments={onComments} />
    </article>
  );
}
