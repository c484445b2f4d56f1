import { lazy, Suspense, useRef } from 'react';
import { useMutation } from '@apollo/client/react';
import { Button, Label, Spinner } from '@primer/react';
import { CheckCircleFillIcon } from '@primer/octicons-react';
import { defineCatalog, useCatalog } from '../../app/i18n';
import { useSession } from '../../app/auth/session';
import { readError } from '../../components/gql-errors';
import { toast } from '../../components/Toast';
import { graphql } from '../../gql';
import type { BlogCardPost } from './BlogCard';
import styles from './blog.module.css';

const ReadingStatusPanel = lazy(() => import('./ReadingStatusPanel'));

const ConfirmBlogPostReadingMutation = graphql(`
  mutation ConfirmBlogPostReading($id: Int!) {
    confirmBlogPostReading(id: $id) {
      ...BlogCardFields
    }
  }
`);

/** Required reading's words (the blog chunk, not the first chunk's catalogs). */
export const READING_TEXT = defineCatalog({
  ja: {
    required: '必読',
    confirm: '確認しました',
    confirmed: '確認済み',
    closed: '確認の受付は終了しました',
    count: '確認 {n}人',
    confirmFailed: '確認を送れませんでした。時間をおいて再度お試しください。',
    editorOption: '閲覧者に確認を求める（必読）',
    editorCaption:
      '速報の投稿だけ。オンにすると、閲覧できる社員に通知が届き、カードの「確認しました」で確認してもらえます。',
    loading: '読み込み中',
  },
  en: {
    required: 'Required',
    confirm: 'I have read it',
    confirmed: 'Confirmed',
    closed: 'Confirmation has closed',
    count: '{n} confirmed',
    confirmFailed: 'The confirmation could not be sent. Please try again later.',
    editorOption: 'Ask readers to confirm (required reading)',
    editorCaption: 'Pinned posts only. Readers are notified and confirm with "I have read it" on the card.',
    loading: 'Loading',
  },
});

export const useReadingText = () => useCatalog(READING_TEXT);

const stop = (e: React.SyntheticEvent) => e.stopPropagation();

/**
 * Required reading on a card or in the dialog: 必読, then for a reader 確認しました (once, while the
 * pin lasts: afterwards the server refuses it and the bar says the confirmation has closed) or 確認済み,
 * for the author how many confirmed.
 */
export function ReadingBar({ post, onChanged }: { post: BlogCardPost; onChanged(p: BlogCardPost): void }) {
  const text = useReadingText();
  const { user } = useSession();
  const [confirm, confirming] = useMutation(ConfirmBlogPostReadingMutation);
  const busy = useRef(false);
  if (!post.requireConfirmation) return null;
  const own = post.author.id === user.id;

  const send = async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const { data } = await confirm({ variables: { id: post.id } });
      if (data) onChanged(data.confirmBlogPostReading);
    } catch (err) {
      toast.error(readError(err).code === 'BAD_USER_INPUT' ? readError(err).message : text('confirmFailed'));
    } finally {
      busy.current = false;
    }
  };

  return (
    <div
      className={styles.reading}
      onClick={stop}
      onDoubleClick={stop}
      onKeyDown={stop}
      role="group"
      data-testid="blog-reading"
    >
      <Label variant="danger">{text('required')}</Label>
      {own ? (
        <span className={styles.readingCount} data-testid="blog-reading-count">
          {text('count', { n: post.confirmedCount })}
        </span>
      ) : post.confirmedByMe ? (
        <span className={styles.readingDone} data-testid="blog-reading-done">
          <CheckCircleFillIcon size={16} />
          {text('confirmed')}
        </span>
      ) : !post.confirmationOpen ? (
        <span className={styles.readingCount} data-testid="blog-reading-closed">
          {text('closed')}
        </span>
      ) : (
        <Button
          size="small"
          variant="primary"
          onClick={() => void send()}
          loading={confirming.loading}
          data-testid="blog-reading-confirm"
        >
          {text('confirm')}
        </Button>
      )}
    </div>
  );
}

/** The author's list in the dialog (its own chunk): who confirmed and who not yet, with remind and reset. */
export function ReadingStatusSection({ post }: { post: BlogCardPost }) {
  const text = useReadingText();
  const { user } = useSession();
  if (!post.requireConfirmation || post.author.id !== user.id) return null;
  return (
    <Suspense fallback={<Spinner size="small" srText={text('loading')} />}>
      <ReadingStatusPanel postId={post.id} confirmedCount={post.confirmedCount} open={post.confirmationOpen} />
    </Suspense>
  );
}
