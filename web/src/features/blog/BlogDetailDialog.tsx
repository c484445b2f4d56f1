import { Dialog } from '@primer/react';
import { useT } from '../../app/i18n';
import { displayDate } from '../../components/master-options';
import { AttachmentView, AuthorBadge, CategoryLabel, StateLabel, type BlogCardPost } from './BlogCard';
import { EngagementBar } from './engagement';
import { ReadingBar, ReadingStatusSection } from './reading';
import styles from './blog.module.css';
import { RichTextView } from '../../components/rich-text/RichTextView';

/** The read-only view of one post (a single click on a card, or a tap on someone else's post on mobile). */
export function BlogDetailDialog({
  post,
  onClose,
  onChanged,
  onComments,
}: {
  post: BlogCardPost;
  onClose(): void;
  onChanged(p: BlogCardPost): void;
  onComments(p: BlogCardPost): void;
}) {
  const t = useT();
  return (
    <Dialog
      title={post.title}
      onClose={onClose}
      width="xlarge"
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: t('rec.close'), buttonType: 'primary', onClick: onClose }]}
    >
      <div className={styles.detail} data-testid="blog-detail">
        <div className={styles.cardHead}>
          <AuthorBadge name={post.author.name} id={post.author.id} />
          <StateLabel post={post} />
        </div>
        <dl className={styles.detailMeta}>
          <dt>{t('blog.category')}</dt>
          <dd>{post.category ? <CategoryLabel category={post.category} /> : t('rec.unset')}</dd>
          <dt>{t('blog.editedAt')}</dt>
          <dd>{displayDate(post.updatedAt)}</dd>
        </dl>
        <RichTextView html={post.contentHtml} />
        <AttachmentView attachment={post.attachment} large />
        <ReadingBar post={post} onChanged={onChanged} />
        <EngagementBar post={post} onChanged={onChanged} onComments={onComments} />
        <ReadingStatusSection post={post} />
      </div>
    </Dialog>
  );
}
