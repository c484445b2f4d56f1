import { useEffect, useState } from 'react';
import { Banner, Button, Dialog, Label, Select, Spinner } from '@primer/react';
import { HistoryIcon } from '@primer/octicons-react';
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { useI18n } from '../../../app/i18n';
import { useConfirm } from '../../../components/ConfirmDialog';
import { readError } from '../../../components/gql-errors';
import { displayDateTime } from '../../../components/master-options';
import type { RichTextDocument } from '../../../components/rich-text/RichTextEditor';
import { toast } from '../../../components/Toast';
import type {
  BlogPostRevisionQuery as RevisionData,
  BlogPostRevisionsQuery as RevisionsData,
} from '../../../gql/graphql';
import { blockDiff } from './body-diff';
import { blockText } from './body-merge';
import { useHistoryText, type HistoryText } from './history.i18n';
import { BlogPostRevisionQuery, BlogPostRevisionsQuery, RestoreBlogPostRevisionMutation } from './operations';
import styles from './history.module.css';

type Listed = RevisionsData['blogPostRevisions'][number];
type Revision = RevisionData['blogPostRevision'];
const PAGE = 20;

/**
 * A post's history (its author and 管理者・システム管理者): every saved version, newest first, with
 * who saved it and what changed; one chosen version compared with another (the one before it by
 * default): the fields that differ side by side and the body block by block. Its author restores a
 * version as a new save (the current one stays in the history).
 */
export function RevisionsDialog({
  post,
  onClose,
  onRestored,
}: {
  post: { id: number; title: string; version: number; canEdit: boolean };
  onClose(): void;
  onRestored(): void;
}) {
  const h = useHistoryText();
  const apollo = useApolloClient();
  const [list, setList] = useState<Listed[]>([]);
  const [more, setMore] = useState(true);
  const [loadError, setLoadError] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [compareTo, setCompareTo] = useState<number | null>(null);

  const loadPage = async (offset: number) => {
    try {
      const r = await apollo.query({
        query: BlogPostRevisionsQuery,
        variables: { id: post.id, offset, limit: PAGE },
        fetchPolicy: 'network-only',
      });
      const page = r.data?.blogPostRevisions ?? [];
      setList((prev) => [...prev.slice(0, offset), ...page]);
      setMore(page.length === PAGE);
      if (offset === 0 && page[0]) {
        setSelected(page[0].version);
        setCompareTo(page[1]?.version ?? null);
      }
    } catch {
      setLoadError(true);
    }
  };
  useEffect(() => {
    void loadPage(0);
    // Once per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choose = (version: number) => {
    setSelected(version);
    const older = list.find((r) => r.version < version);
    setCompareTo(older?.version ?? null);
  };

  return (
    <Dialog
      title={h('title', { title: post.title })}
      width="xlarge"
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[{ content: h('close'), onClick: onClose }]}
    >
      <div className={styles.frame} data-testid="blog-history">
        {loadError ? (
          <Banner variant="critical" title={h('loadFailed')} />
        ) : list.length === 0 && more ? (
          <Spinner size="medium" srText={null} />
        ) : list.length === 0 ? (
          <p className={styles.empty}>{h('empty')}</p>
        ) : (
          <>
            <nav className={styles.list} aria-label={h('versions')}>
              <ol>
                {list.map((r, i) => (
                  <li key={r.version}>
                    <button
                      type="button"
                      className={styles.item}
                      aria-current={selected === r.version ? 'true' : undefined}
                      onClick={() => choose(r.version)}
                      data-testid="history-item"
                    >
                      <span className={styles.itemHead}>
                        <strong>{h('version', { n: r.version })}</strong>
                        {r.version === post.version && <Label variant="accent">{h('current')}</Label>}
                      </span>
                      <span className={styles.itemMeta}>
                        {h('savedBy', {
                          time: displayDateTime(r.savedAt as string),
                          name: r.savedBy?.name ?? h('unknownSaver'),
                        })}
                      </span>
                      <span className={styles.itemChanges}>{changeSummary(h, r, !more && i === list.length - 1)}</span>
                    </button>
                  </li>
                ))}
              </ol>
              {more && (
                <Button size="small" block onClick={() => void loadPage(list.length)}>
                  {h('more')}
                </Button>
              )}
            </nav>
            {selected !== null && (
              <Comparison
                h={h}
                post={post}
                version={selected}
                compareTo={compareTo}
                older={list.filter((r) => r.version < selected).map((r) => r.version)}
                onCompareTo={setCompareTo}
                onRestored={() => {
                  onRestored();
                  onClose();
                }}
              />
            )}
          </>
        )}
      </div>
    </Dialog>
  );
}

function changeSummary(h: HistoryText, r: Listed, first: boolean): string {
  if (r.restoredFrom !== null && r.restoredFrom !== undefined) return h('restoredFrom', { n: r.restoredFrom });
  if (r.changes.length === 0) return first ? h('created') : '';
  return r.changes.map((c) => h(`change.${c}`)).join('・');
}

/** One version against another: the fields that differ, then the body block by block, and the way back to it. */
function Comparison({
  h,
  post,
  version,
  compareTo,
  older,
  onCompareTo,
  onRestored,
}: {
  h: HistoryText;
  post: { id: number; version: number; canEdit: boolean };
  version: number;
  compareTo: number | null;
  older: number[];
  onCompareTo(v: number | null): void;
  onRestored(): void;
}) {
  const { t } = useI18n();
  const newer = useQuery(BlogPostRevisionQuery, { variables: { id: post.id, version } }).data?.blogPostRevision;
  const base = useQuery(BlogPostRevisionQuery, {
    variables: { id: post.id, version: compareTo ?? 0 },
    skip: compareTo === null,
  }).data?.blogPostRevision;
  const [restore, { loading: restoring }] = useMutation(RestoreBlogPostRevisionMutation);
  const [failure, setFailure] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();

  const doRestore = async () => {
    const ok = await confirm({
      title: h('restoreTitle', { n: version }),
      body: h('restoreBody'),
      confirmLabel: h('restore'),
      cancelLabel: h('cancel'),
    });
    if (!ok) return;
    setFailure(null);
    try {
      await restore({ variables: { id: post.id, version, expectedVersion: post.version } });
      toast.success(h('restored', { n: version }));
      onRestored();
    } catch (e) {
      const err = readError(e);
      setFailure(err.message || t('err.OTHER', { name: '' }));
    }
  };

  if (!newer || (compareTo !== null && !base)) return <Spinner size="medium" srText={null} />;
  const rows = fieldRows(h, base ?? null, newer).filter((r) => r.before !== r.after);
  const body = blockDiff(base?.content as RichTextDocument | undefined, newer.content as unknown as RichTextDocument);
  const bodyChanged = body.some((b) => b.side !== 'same');
  return (
    <section className={styles.compare} aria-label={h('version', { n: version })} data-testid="history-compare">
      <div className={styles.compareHead}>
        <h3 className={styles.compareTitle}>{h('version', { n: version })}</h3>
        <label className={styles.compareWith}>
          <span>{h('compareWith')}</span>
          <Select
            size="small"
            value={compareTo === null ? '' : String(compareTo)}
            onChange={(e) => onCompareTo(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="history-compare-with"
          >
            {older.map((v) => (
              <Select.Option key={v} value={String(v)}>
                {h('version', { n: v })}
              </Select.Option>
            ))}
            <Select.Option value="">{h('compareNone')}</Select.Option>
          </Select>
        </label>
        {post.canEdit && version !== post.version && (
          <Button
            leadingVisual={restoring ? () => <Spinner size="small" srText={null} /> : HistoryIcon}
            onClick={() => void doRestore()}
            disabled={restoring}
            data-testid="history-restore"
          >
            {restoring ? h('restoring') : h('restore')}
          </Button>
        )}
      </div>
      {failure && <Banner variant="critical" title={failure} data-testid="history-failure" />}
      <h4 className={styles.sectionTitle}>{h('fields')}</h4>
      {rows.length === 0 ? (
        <p className={styles.muted}>{h('noFieldChanges')}</p>
      ) : (
        <div className={styles.tableScroll}>
          <table className={styles.fields} data-testid="history-fields">
            <thead>
              <tr>
                <th scope="col">{h('field')}</th>
                <th scope="col">{compareTo === null ? '' : h('version', { n: compareTo })}</th>
                <th scope="col">{h('version', { n: version })}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">{r.label}</th>
                  <td className={styles.before}>{r.before}</td>
                  <td className={styles.after}>{r.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h4 className={styles.sectionTitle}>{h('body')}</h4>
      {!bodyChanged && <p className={styles.muted}>{h('noBodyChanges')}</p>}
      <ol className={styles.blocks} data-testid="history-body">
        {body.map((b, i) => (
          <li key={i} className={styles.block} data-side={b.side}>
            <span className={styles.blockSide}>
              {h(b.side === 'same' ? 'sideSame' : b.side === 'removed' ? 'sideRemoved' : 'sideAdded')}
            </span>
            <span className={styles.blockText}>{blockText(b.block)}</span>
          </li>
        ))}
      </ol>
      {dialog}
    </section>
  );
}

/** The fields of two versions as people read them (the older one empty when there is none). */
function fieldRows(h: HistoryText, before: Revision | null, after: Revision) {
  const show = (r: Revision | null, f: (r: Revision) => string) => (r ? f(r) : '');
  const yesNo = (v: boolean) => (v ? h('yes') : h('no'));
  const fields: [string, (r: Revision) => string][] = [
    [h('change.TITLE'), (r) => r.title],
    [h('change.CATEGORY'), (r) => r.categoryName ?? h('no')],
    [h('change.TAGS'), (r) => r.tagNames.join('、') || h('no')],
    [h('change.PUBLISH'), (r) => `${r.publishStart} 〜 ${r.publishEnd ?? h('noEnd')}`],
    [
      h('change.PIN'),
      (r) =>
        r.isPin ? `${r.pinStart ?? ''} 〜 ${r.pinEnd ?? ''}${r.requireConfirmation ? h('required') : ''}` : h('no'),
    ],
    [h('change.OPTIONS'), (r) => h('options', { comments: yesNo(r.allowComments), likes: yesNo(r.allowLikes) })],
    [h('change.STATE'), (r) => (r.isDraft ? h('draft') : h('published'))],
    [h('change.ATTACHMENT'), (r) => r.attachmentName ?? h('no')],
  ];
  return fields.map(([label, f]) => ({ label, before: show(before, f), after: show(after, f) }));
}
