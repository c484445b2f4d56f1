import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, useConfirm } from '@primer/react';
import { defineCatalog, useCatalog } from '../../app/i18n';
import { displayDateTime } from '../../components/master-options';
import { readError } from '../../components/gql-errors';
import { toast } from '../../components/Toast';
import { graphql } from '../../gql';
import styles from './blog.module.css';

const BlogReadingStatusQuery = graphql(`
  query BlogReadingStatus($postId: Int!) {
    blogReadingStatus(postId: $postId) {
      postId
      confirmed {
        id
        name
        departmentName
        confirmedAt
      }
      unconfirmed {
        id
        name
        departmentName
      }
    }
  }
`);

const RemindBlogPostReadingMutation = graphql(`
  mutation RemindBlogPostReading($postId: Int!) {
    remindBlogPostReading(postId: $postId)
  }
`);

const ResetBlogPostReadingMutation = graphql(`
  mutation ResetBlogPostReading($postId: Int!) {
    resetBlogPostReading(postId: $postId) {
      postId
    }
  }
`);

const READING_STATUS = defineCatalog({
  ja: {
    title: '確認の状況',
    confirmed: '確認済み（{n}人）',
    unconfirmed: '未確認（{n}人）',
    none: 'いません',
    remind: '未確認の人に催促する',
    reminded: '{n}人に催促の通知を送りました。',
    reset: '確認をリセット',
    resetTitle: '確認をリセットしますか？',
    resetBody:
      'これまでの確認をすべて取り消し、閲覧者にもう一度確認を求める通知を送ります。大きな修正のあとに使います。',
    resetDone: '確認をリセットし、閲覧者に通知しました。',
    cancel: 'キャンセル',
    failed: '操作できませんでした。時間をおいて再度お試しください。',
    closed: '速報の掲載が終わったため、確認の受付は終了しました（催促・リセットはできません）。',
    loadFailed: '確認の状況を読み込めませんでした。',
  },
  en: {
    title: 'Confirmations',
    confirmed: 'Confirmed ({n})',
    unconfirmed: 'Not yet ({n})',
    none: 'None',
    remind: 'Remind those who have not',
    reminded: 'Reminded {n} people.',
    reset: 'Reset confirmations',
    resetTitle: 'Reset the confirmations?',
    resetBody: 'Every confirmation is cleared and the readers are asked again. Use it after a major edit.',
    resetDone: 'The confirmations were reset and the readers notified.',
    cancel: 'Cancel',
    failed: 'That did not work. Please try again later.',
    closed: 'The pin has ended, so confirmations are closed (no reminders or resets).',
    loadFailed: 'The confirmations could not be loaded.',
  },
});

/**
 * The author's view of a required-reading post: who has and has not confirmed among the employees
 * who may read it; read again whenever the live count changes.
 */
export default function ReadingStatusPanel({
  postId,
  confirmedCount,
  open,
}: {
  postId: number;
  confirmedCount: number;
  open: boolean;
}) {
  const tr = useCatalog(READING_STATUS);
  const { data, error, refetch } = useQuery(BlogReadingStatusQuery, {
    variables: { postId },
    fetchPolicy: 'network-only',
  });
  const [remind, reminding] = useMutation(RemindBlogPostReadingMutation);
  const [reset, resetting] = useMutation(ResetBlogPostReadingMutation);
  const confirm = useConfirm();
  const [first, setFirst] = useState(true);

  useEffect(() => {
    if (first) return setFirst(false);
    void refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the live count moves
  }, [confirmedCount]);

  const status = data?.blogReadingStatus;
  const sendReminder = async () => {
    try {
      const r = await remind({ variables: { postId } });
      toast.success(tr('reminded', { n: r.data?.remindBlogPostReading ?? 0 }));
    } catch (err) {
      // The server's own words for a refusal (the pin ended meanwhile), ours for anything else.
      toast.error(readError(err).code === 'BAD_USER_INPUT' ? readError(err).message : tr('failed'));
    }
  };
  const resetAll = async () => {
    if (
      !(await confirm({
        title: tr('resetTitle'),
        content: tr('resetBody'),
        confirmButtonContent: tr('reset'),
        cancelButtonContent: tr('cancel'),
        confirmButtonType: 'danger',
      }))
    )
      return;
    try {
      await reset({ variables: { postId } });
      toast.success(tr('resetDone'));
      await refetch();
    } catch (err) {
      // The server's own words for a refusal (the pin ended meanwhile), ours for anything else.
      toast.error(readError(err).code === 'BAD_USER_INPUT' ? readError(err).message : tr('failed'));
    }
  };

  return (
    <section className={styles.readingStatus} data-testid="blog-reading-status" aria-label={tr('title')}>
      <h3 className={styles.readingTitle}>{tr('title')}</h3>
      {error && <p>{tr('loadFailed')}</p>}
      {status && (
        <div className={styles.readingLists}>
          <div>
            <h4>{tr('confirmed', { n: status.confirmed.length })}</h4>
            <ul data-testid="blog-reading-confirmed">
              {status.confirmed.map((r) => (
                <li key={r.id}>
                  {r.name}
                  <span className={styles.readingMeta}>
                    {r.departmentName ?? ''} {displayDateTime(String(r.confirmedAt))}
                  </span>
                </li>
              ))}
              {!status.confirmed.length && <li className={styles.readingMeta}>{tr('none')}</li>}
            </ul>
          </div>
          <div>
            <h4>{tr('unconfirmed', { n: status.unconfirmed.length })}</h4>
            <ul data-testid="blog-reading-unconfirmed">
              {status.unconfirmed.map((r) => (
                <li key={r.id}>
                  {r.name}
                  <span className={styles.readingMeta}>{r.departmentName ?? ''}</span>
                </li>
              ))}
              {!status.unconfirmed.length && <li className={styles.readingMeta}>{tr('none')}</li>}
            </ul>
          </div>
        </div>
      )}
      {open ? (
        <div className={styles.readingActions}>
          <Button
            size="small"
            onClick={() => void sendReminder()}
            loading={reminding.loading}
            disabled={!status?.unconfirmed.length}
            data-testid="blog-reading-remind"
          >
            {tr('remind')}
          </Button>
          <Button
            size="small"
            variant="danger"
            onClick={() => void resetAll()}
            loading={resetting.loading}
            data-testid="blog-reading-reset"
          >
            {tr('reset')}
          </Button>
        </div>
      ) : (
        <p className={styles.readingMeta} data-testid="blog-reading-closed-note">
          {tr('closed')}
        </p>
      )}
    </section>
  );
}
