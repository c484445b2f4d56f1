import { Fragment, useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Button, Spinner } from '@primer/react';
import { Blankslate } from '@primer/react/experimental';
import { AlertIcon, ArrowLeftIcon, PencilIcon } from '@primer/octicons-react';
import { RecordModeContext } from './FormFields';
import { Page } from './Page';
import { PageHeading } from './PageHeading';
import { ToastHost } from './Toast';
import styles from './DetailFrame.module.css';

/** Form state of a detail screen: view mode until Edit, a new record always in edit mode. */
export function useRecordEditor<V>(empty: V, isNew: boolean) {
  const [loaded, setLoaded] = useState<V>(empty);
  const [values, setValues] = useState<V>(empty);
  const [editing, setEditing] = useState(isNew);
  const load = useCallback((v: V) => {
    setLoaded(v);
    setValues(v);
  }, []);
  const set = useCallback(
    <K extends keyof V>(key: K, value: V[K]) => setValues((prev) => ({ ...prev, [key]: value })),
    [],
  );
  const restore = useCallback(() => setValues(loaded), [loaded]);
  /** After a conflict: the saved record is the new starting point, the form shows the merged values. */
  const rebase = useCallback((saved: V, merged: V) => {
    setLoaded(saved);
    setValues(merged);
  }, []);
  const dirty = JSON.stringify(values) !== JSON.stringify(loaded);
  return { values, setValues, loaded, load, rebase, set, restore, editing, setEditing, dirty };
}

/** In place of a record that cannot be shown: why (no such record, or its load failed), and optionally a way back. */
export function UnavailablePanel({
  title,
  body,
  back,
}: {
  title: string;
  body: string;
  back?: { href: string; label: string };
}) {
  return (
    <div data-testid="record-unavailable">
      <Blankslate border spacious>
        <Blankslate.Visual>
          <AlertIcon size="medium" />
        </Blankslate.Visual>
        <Blankslate.Heading as="h2">{title}</Blankslate.Heading>
        <Blankslate.Description>{body}</Blankslate.Description>
        {back && <Blankslate.SecondaryAction href={back.href}>{back.label}</Blankslate.SecondaryAction>}
      </Blankslate>
    </div>
  );
}

export interface DetailFrameLabels {
  back: string;
  edit: string;
  save: string;
  saving: string;
  cancel: string;
  closeToast: string;
  /** A value not set, in view mode. */
  empty: string;
}

/**
 * The frame of every detail screen: heading with the record's id, the Edit button in view mode,
 * Save/Cancel in edit mode, a banner slot (conflict, errors), the form and extra sections.
 */
export function DetailFrame({
  testId,
  section,
  title,
  description,
  chips,
  backTo,
  labels,
  editing,
  canEdit = true,
  saving,
  loading,
  onEdit,
  onCancel,
  onSubmit,
  banner,
  failures,
  unavailable,
  children,
  after,
}: {
  testId: string;
  section?: string;
  title: string;
  description?: string;
  chips?: ReactNode[];
  backTo: string;
  labels: DetailFrameLabels;
  editing: boolean;
  canEdit?: boolean;
  saving?: boolean;
  loading?: boolean;
  onEdit(): void;
  onCancel(): void;
  onSubmit(): void;
  banner?: ReactNode;
  /** Failed saves so far (each brings the first field in error, or the banner, into view). */
  failures?: number;
  /** The record could not be shown (no such record, or its load failed): this instead of the form. */
  unavailable?: { title: string; body: string };
  children: ReactNode;
  after?: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (editing && !saving) onSubmit();
  };
  const top = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const bannerShown = !!banner;
  // A save that failed: bring what went wrong into view (Save sits at the bottom of a long form).
  // The first field with an error gets the focus; without one (a conflict), the banner is shown.
  useEffect(() => {
    if (!bannerShown && !failures) return;
    const invalid = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (invalid) {
      invalid.scrollIntoView({ block: 'center' });
      invalid.focus({ preventScroll: true });
    } else top.current?.scrollIntoView({ block: 'start' });
  }, [bannerShown, failures]);
  return (
    <Page testId={testId}>
      <ToastHost closeLabel={labels.closeToast} />
      <div className={styles.back}>
        <RouterLink to={backTo} className={styles.backLink}>
          <ArrowLeftIcon size={16} />
          {labels.back}
        </RouterLink>
      </div>
      <PageHeading section={section} title={title} description={description} labels={chips} />
      {banner && (
        <div ref={top} className={styles.banner}>
          {banner}
        </div>
      )}
      {loading ? (
        <div className={styles.loading}>
          <Spinner size="medium" />
        </div>
      ) : unavailable ? (
        <UnavailablePanel title={unavailable.title} body={unavailable.body} />
      ) : (
        <form ref={form} onSubmit={submit} noValidate data-mode={editing ? 'edit' : 'view'}>
          <RecordModeContext.Provider value={{ editing, emptyText: labels.empty }}>
            <div className={styles.card}>{children}</div>
          </RecordModeContext.Provider>
          <div className={styles.actions} data-sticky-actions>
            {/* Keyed apart: the edit button must never be reused as the submit button in the click that switches modes, or that click submits the form. */}
            {editing ? (
              <Fragment key="edit">
                <Button onClick={onCancel} disabled={saving}>
                  {labels.cancel}
                </Button>
                <Button
                  type="submit"
                  variant="primary"
                  disabled={saving}
                  leadingVisual={saving ? () => <Spinner size="small" srText={null} /> : undefined}
                >
                  {saving ? labels.saving : labels.save}
                </Button>
              </Fragment>
            ) : (
              canEdit && (
                <Button key="view" variant="primary" leadingVisual={PencilIcon} onClick={onEdit}>
                  {labels.edit}
                </Button>
              )
            )}
          </div>
        </form>
      )}
      {!loading && !unavailable && after}
    </Page>
  );
}
