import { useEffect, useState } from 'react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { Button, useConfirm } from '@primer/react';
import { defineCatalog, useCatalog } from '../../app/i18n';
import { displayDateTime } from '../../components/master-options';
import { readError } from '../../components/gql-errors';
import { toast } from '../../components/Toast';
import { graphql } from '../../gql';
import styles from './blog.module.css';

/** The first page of each list comes with the counts; もっと見る reads the next page of one list. */
const PAGE = 50;

const BlogReadingStatusQuery = graphql(`
  query BlogReadingStatus($postId: Int!, $limit: Int!) {
    blogReadingStatus(postId: $postId) {
      postId
      confirmedCount
      unconfirmedCount
      confirmed(limit: $limit) {
        id
        name
        departmentName
        confirmedAt
      }
      unconfirmed(limit: $limit) {
        id
        name
        departmentName
      }
    }
  }
`);

const BlogReadersPageQuery = graphql(`
  query BlogReadersPage($postId: Int!, $offset: Int!, $limit: Int!, $confirmed: Boolean!) {
    blogReadingStatus(postId: $postId) {
      postId
      confirmed(offset: $offset, limit: $limit) @include(if: $confirmed) {
        id
        name
        departmentName
        confirmedAt
      }
      unconfirmed(offset: $offset, limit: $limit) @skip(if: $confirmed) {
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
    more: 'もっと見る（残り {n}人）',
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
    more: 'Show more ({n} more)',
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

/** One reader as a list shows them (confirmedAt on the confirmed list only). */
interface Reader {
  id: number;
  name: string;
  departmentName: string | null;
  confirmedAt?: unknown;
}

/**
 * The author's view of a required-reading post: who has and has not confirmed among the employees
 * who may read it, a page of each at a time (a post the whole company reads has thousands); read
 * again whenever the live count changes.
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
  const client = useApolloClient();
  const { data, error, refetch } = useQuery(BlogReadingStatusQuery, {
    variables: { postId, limit: PAGE },
    fetchPolicy: 'network-only',
  });
  // The pages read beyond the first, per list; a new read of the status starts over.
  const [more, setMore] = useState<{ confirmed: Reader[]; unconfirmed: Reader[] }>({ confirmed: [], unconfirmed: [] });
  const [reading, setReading] = useState(false);
  useEffect(() => setMore({ confirmed: [], unconfirmed: [] }), [data]);
  const readMore = async (list: 'confirmed' | 'unconfirmed', offset: number) => {
    setReading(true);
    try {
      const r = await client.query({
        query: BlogReadersPageQuery,
        variables: { postId, offset, limit: PAGE, confirmed: list === 'confirmed' },
        fetchPolicy: 'no-cache',
      });
      const page = (r.data?.blogReadingStatus[list] ?? []) as Reader[];
      setMore((m) => ({ ...m, [list]: [...m[list], ...page] }));
    } catch {
      toast.error(tr('loadFailed'));
    } finally {
      setReading(false);
    }
  };
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
  const confirmedShown: Reader[] = status ? [...status.confirmed, ...more.confirmed] : [];
  const unconfirmedShown: Reader[] = status ? [...status.unconfirmed, ...more.unconfirmed] : [];
  const moreButton = (list: 'confirmed' | 'unconfirmed', shown: number, total: number) =>
    shown < total && (
      <Button
        size="small"
        variant="invisible"
        onClick={() => void readMore(list, shown)}
        disabled={reading}
        data-testid={`blog-reading-more-${list}`}
      >
        {tr('more', { n: total - shown })}
      </Button>
    );
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
            <h4>{tr('confirmed', { n: status.confirmedCount })}</h4>
            <ul data-testid="blog-reading-confirmed">
              {confirmedShown.map((r) => (
                <li key={r.id}>
                  {r.name}
                  <span className={styles.readingMeta}>
                    {r.departmentName ?? ''} {r.confirmedAt ? displayDateTime(String(r.confirmedAt)) : ''}
                  </span>
                </li>
              ))}
              {!status.confirmedCount && <li className={styles.readingMeta}>{tr('none')}</li>}
            </ul>
            {moreButton('confirmed', confirmedShown.length, status.confirmedCount)}
          </div>
          <div>
            <h4>{tr('unconfirmed', { n: status.unconfirmedCount })}</h4>
            <ul data-testid="blog-reading-unconfirmed">
              {unconfirmedShown.map((r) => (
                <li key={r.id}>
                  {r.name}
                  <span className={styles.readingMeta}>{r.departmentName ?? ''}</span>
                </li>
              ))}
              {!status.unconfirmedCount && <li className={styles.readingMeta}>{tr('none')}</li>}
            </ul>
            {moreButton('unconfirmed', unconfirmedShown.length, status.unconfirmedCount)}
          </div>
        </div>
      )}
      {open ? (
        <div className={styles.readingActions}>
          <Button
            size="small"
            onClick={() => void sendReminder()}
            loading={reminding.loading}
            disabled={!status?.unconfirmedCount}
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
