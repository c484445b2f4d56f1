import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { Banner, Button, Dialog, Label, LinkButton, ProgressBar } from '@primer/react';
import { DownloadIcon, UploadIcon } from '@primer/octicons-react';
import { useCatalog, useT } from '../../app/i18n';
import { IMPORT } from './import.i18n';
import { toast } from '../../components/Toast';
import type { ImportJobStatus, ImportJobQuery as ImportJobData } from '../../gql/graphql';
import { ApplyImportMutation, ImportJobChangedSubscription, ImportJobQuery } from './import.operations';
import { uploadImport, type UploadOutcome } from './import-upload';
import styles from './devices.module.css';

const TEMPLATE_URL = '/api/computers/import/template';
const ACCEPT = '.xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';

type Job = NonNullable<ImportJobData['importJob']>;
const terminal = (j: { status: ImportJobStatus } | null | undefined) =>
  j?.status === 'SUCCEEDED' || j?.status === 'FAILED';
const n = (v: number) => v.toLocaleString('ja-JP');
/** The error rows shown in the dialog (the query asks for this many); the report has them all. */
const ERROR_LIMIT = 100;

/**
 * The computers Excel import: pick a file (or drop it), upload it as a preview job, show what would be
 * created, updated and rejected, then run the import with a live progress bar and end with the
 * summary and the per-row error report. The jobs run in the import worker; this dialog follows them
 * through the `importJobChanged` subscription (with a slow poll as a safety net).
 */
export function ImportDialog({ onClose }: { onClose(): void }) {
  const tx = useCatalog(IMPORT);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [upload, setUpload] = useState<number | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const [applyError, setApplyError] = useState<string | null>(null);
  const [apply, applying] = useMutation(ApplyImportMutation);

  const choose = (f: File | undefined) => {
    setFileError(null);
    if (!f) return;
    if (!/\.(xlsx|xls)$/i.test(f.name)) {
      setFile(null);
      setFileError(tx('badExtension'));
      return;
    }
    setFile(f);
  };

  const startPreview = async () => {
    if (!file) return;
    setFileError(null);
    setUpload(0);
    const out: UploadOutcome = await uploadImport(file, setUpload);
    setUpload(null);
    if ('error' in out) setFileError(out.error ?? tx('failed'));
    else setJobId(out.jobId);
  };

  const startApply = async (previewId: string) => {
    setApplyError(null);
    try {
      const res = await apply({ variables: { previewJobId: previewId } });
      if (res.data) setJobId(res.data.applyImport.id);
    } catch (e) {
      setApplyError((e as Error).message || tx('failed'));
    }
  };

  return (
    <Dialog
      title={tx('title')}
      width="xlarge"
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      data-testid="import-dialog"
    >
      {jobId ? (
        <JobView
          key={jobId}
          id={jobId}
          applyError={applyError}
          applying={applying.loading}
          onApply={startApply}
          onBack={() => (setJobId(null), setFile(null))}
          onClose={onClose}
        />
      ) : (
        <Picker
          file={file}
          error={fileError}
          upload={upload}
          onChoose={choose}
          onStart={() => void startPreview()}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function Picker({
  file,
  error,
  upload,
  onChoose,
  onStart,
  onClose,
}: {
  file: File | null;
  error: string | null;
  upload: number | null;
  onChoose(f: File | undefined): void;
  onStart(): void;
  onClose(): void;
}) {
  const t = useT();
  const tx = useCatalog(IMPORT);
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    onChoose(e.dataTransfer.files[0]);
  };
  return (
    <div className={styles.importBody}>
      <p className={styles.importLead}>{tx('lead')}</p>
      <div>
        <LinkButton href={TEMPLATE_URL} download="" leadingVisual={DownloadIcon} size="small">
          {tx('template')}
        </LinkButton>
      </div>
      <div
        className={styles.dropZone}
        data-over={over || undefined}
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <UploadIcon size={24} />
        <span>{file ? `${file.name}（${formatSize(file.size)}）` : tx('dropHere')}</span>
        <Button size="small" onClick={() => input.current?.click()}>
          {tx('chooseFile')}
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          hidden
          data-testid="import-file"
          onChange={(e) => (onChoose(e.target.files?.[0]), (e.target.value = ''))}
        />
      </div>
      {error && <Banner variant="critical" title={tx('refused')} description={error} hideTitle />}
      {upload !== null && <ProgressBar progress={upload} aria-label={tx('uploading')} barSize="small" />}
      <div className={styles.importActions}>
        <Button onClick={onClose}>{t('rec.cancel')}</Button>
        <Button variant="primary" disabled={!file || upload !== null} onClick={onStart}>
          {upload !== null ? tx('uploading') : tx('check')}
        </Button>
      </div>
    </div>
  );
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function JobView({
  id,
  applyError,
  applying,
  onApply,
  onBack,
  onClose,
}: {
  id: string;
  applyError: string | null;
  applying: boolean;
  onApply(previewId: string): void;
  onBack(): void;
  onClose(): void;
}) {
  const t = useT();
  const tx = useCatalog(IMPORT);
  const { data, refetch, startPolling, stopPolling } = useQuery(ImportJobQuery, {
    variables: { id },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: false,
  });
  const job = data?.importJob;
  const done = terminal(job);
  // The subscription updates the cached job (same id); a finished job is re-read once for its rows.
  useSubscription(ImportJobChangedSubscription, {
    variables: { id },
    skip: done,
    onData: ({ data: d }) => terminal(d.data?.importJobChanged) && void refetch(),
  });
  // Safety net for a change that happened between the first read and the subscription's start.
  useEffect(() => {
    if (done) return;
    startPolling(3000);
    return stopPolling;
  }, [done, startPolling, stopPolling]);
  if (!job) return <Progress label={tx('waiting')} processed={0} total={null} />;
  const preview = job.mode === 'PREVIEW';
  if (!done)
    return (
      <Progress
        label={tx(preview ? 'checking' : 'running')}
        processed={job.processedRows}
        total={job.totalRows ?? null}
      />
    );
  if (job.status === 'FAILED') {
    return (
      <div className={styles.importBody}>
        <Banner variant="critical" title={tx('failed')} description={job.error ?? tx('failed')} />
        <div className={styles.importActions}>
          <Button onClick={onBack}>{tx('another')}</Button>
          <Button variant="primary" onClick={onClose}>
            {t('rec.close')}
          </Button>
        </div>
      </div>
    );
  }
  const writes = job.created + job.updated;
  return (
    <div className={styles.importBody}>
      {!preview && <Finished job={job} />}
      {preview && <p className={styles.importLead}>{tx('previewLead', { file: job.fileName })}</p>}
      <Counts job={job} />
      {preview && job.preview.length > 0 && <PreviewTable rows={job.preview} />}
      {job.errors.length > 0 && <ErrorTable job={job} />}
      {applyError && <Banner variant="critical" title={tx('failed')} description={applyError} />}
      <div className={styles.importActions}>
        {preview ? (
          <>
            <Button onClick={onBack}>{tx('another')}</Button>
            <Button variant="primary" disabled={writes === 0 || applying} onClick={() => onApply(job.id)}>
              {writes === 0 ? tx('nothingToDo') : tx('apply', { n: n(writes) })}
            </Button>
          </>
        ) : (
          <Button variant="primary" onClick={onClose}>
            {t('rec.close')}
          </Button>
        )}
      </div>
    </div>
  );
}

function Finished({ job }: { job: Job }) {
  const tx = useCatalog(IMPORT);
  const announced = useRef(false);
  useEffect(() => {
    // The spec's summary, also as a toast so it stays visible after the dialog closes.
    if (announced.current) return;
    announced.current = true;
    if (job.rejected > 0) toast.warning(tx('doneWithErrors', { n: n(job.rejected) }));
    else toast.success(tx('done'));
  }, [job.rejected, tx]);
  return job.rejected > 0 ? (
    <Banner
      variant="warning"
      title={tx('doneWithErrors', { n: n(job.rejected) })}
      description={tx('doneWithErrorsHint')}
    />
  ) : (
    <Banner
      variant="success"
      title={tx('done')}
      description={tx('doneSummary', { created: n(job.created), updated: n(job.updated), unchanged: n(job.unchanged) })}
    />
  );
}

function Progress({ label, processed, total }: { label: string; processed: number; total: number | null }) {
  const tx = useCatalog(IMPORT);
  const pct = total ? Math.min(100, Math.round((processed / total) * 100)) : 0;
  return (
    <div className={styles.importBody} data-testid="import-progress">
      <p className={styles.importLead}>{label}</p>
      <ProgressBar progress={total ? pct : 0} aria-label={label} />
      <p className={styles.importMeta}>
        {total
          ? tx('progress', { done: n(processed), total: n(total), pct })
          : tx('progressUnknown', { done: n(processed) })}
      </p>
      <p className={styles.importMeta}>{tx('closeHint')}</p>
    </div>
  );
}

function Counts({ job }: { job: Job }) {
  const tx = useCatalog(IMPORT);
  const items: [string, number, 'success' | 'accent' | 'secondary' | 'danger'][] = [
    [tx('count.created'), job.created, 'success'],
    [tx('count.updated'), job.updated, 'accent'],
    [tx('count.unchanged'), job.unchanged, 'secondary'],
    [tx('count.rejected'), job.rejected, 'danger'],
  ];
  return (
    <dl className={styles.importCounts} data-testid="import-counts">
      {items.map(([label, value, tone]) => (
        <div key={label} data-tone={tone}>
          <dt>{label}</dt>
          <dd>{n(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

const ACTION_VARIANT = { CREATE: 'success', UPDATE: 'accent', UNCHANGED: 'secondary', REJECT: 'danger' } as const;

function PreviewTable({ rows }: { rows: Job['preview'] }) {
  const t = useT();
  const tx = useCatalog(IMPORT);
  return (
    <section>
      <h3 className={styles.importHeading}>{tx('previewRows', { n: n(rows.length) })}</h3>
      <div className={styles.importScroll}>
        <table className={styles.importTable} data-testid="import-preview">
          <thead>
            <tr>
              <th>{tx('col.row')}</th>
              <th>{tx('col.action')}</th>
              <th>{tx('col.assetNumber')}</th>
              <th>{tx('col.device')}</th>
              <th>{t('pc.currentUser')}</th>
              <th>{tx('col.changed')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.row}>
                <td>{r.row}</td>
                <td>
                  <Label size="small" variant={ACTION_VARIANT[r.action]}>
                    {tx(`action.${r.action}` as const)}
                  </Label>
                </td>
                <td>{r.assetNumber ?? (r.computerId ? `ID ${r.computerId}` : '—')}</td>
                <td>{[r.maker, r.model].filter(Boolean).join(' ') || '—'}</td>
                <td>{r.currentUserName ?? '—'}</td>
                <td>{r.action === 'UPDATE' && <Changes changed={r.changed} cleared={r.cleared} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * What an update changes: the fields that get a new value, then, apart, the fields a blank cell
 * empties (an existing computer takes every column from the file, so a blank clears what is stored).
 */
function Changes({ changed, cleared }: { changed: string[]; cleared: string[] }) {
  const tx = useCatalog(IMPORT);
  const set = changed.filter((c) => !cleared.includes(c));
  return (
    <>
      {set.length > 0 && <div>{set.join('、')}</div>}
      {cleared.length > 0 && (
        <div data-testid="import-cleared" style={{ color: 'var(--fgColor-danger)' }}>
          {tx('cleared', { fields: cleared.join('、') })}
        </div>
      )}
    </>
  );
}

function ErrorTable({ job }: { job: Job }) {
  const tx = useCatalog(IMPORT);
  return (
    <section>
      <div className={styles.importHeadingRow}>
        <h3 className={styles.importHeading}>{tx('errorRows', { n: n(job.rejected) })}</h3>
        {job.errorReportUrl && (
          <LinkButton href={job.errorReportUrl} download="" leadingVisual={DownloadIcon} size="small">
            {tx('errorReport')}
          </LinkButton>
        )}
      </div>
      <div className={styles.importScroll}>
        <table className={styles.importTable} data-testid="import-errors">
          <thead>
            <tr>
              <th>{tx('col.row')}</th>
              <th>{tx('col.column')}</th>
              <th>{tx('col.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {job.errors.map((e, i) => (
              <tr key={`${e.row}-${i}`}>
                <td>{e.row}</td>
                <td>{e.column ?? '—'}</td>
                <td>{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {job.errors.length >= ERROR_LIMIT && <p className={styles.importMeta}>{tx('moreErrors', { n: ERROR_LIMIT })}</p>}
    </section>
  );
}
