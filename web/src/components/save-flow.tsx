import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Banner } from '@primer/react';
import type { PageDef } from '../app/areas';
import { leaveOnPurpose, useLeaveGuard } from '../app/leave-guard';
import { useT } from '../app/i18n';
import type { ConfirmRequest } from './ConfirmDialog';
import { ConflictBanner } from './DetailFrame';
import { readError } from './gql-errors';
import { useDetailLabels, useErrorText, useFieldErrors } from './labels';
import { toast } from './Toast';

/**
 * Saving a detail form: field errors under the fields, a conflict banner that offers the current
 * values (CONFLICT), a failure toast and banner otherwise.
 */
export function useSaveFlow(onLoadCurrent: (current: unknown) => void) {
  const t = useT();
  const errorText = useErrorText();
  const fieldErrorsOf = useFieldErrors();
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<{ message: string; current: unknown } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reset = () => {
    setFieldErrors({});
    setConflict(null);
    setFailure(null);
  };

  /** Runs the save; false when it failed (messages already shown). */
  const run = async (save: () => Promise<unknown>, failToast: string): Promise<boolean> => {
    reset();
    // The last attempt's failure toast is stale now (it would stay beside this attempt's success).
    toast.clear(failToast);
    setSaving(true);
    try {
      await save();
      return true;
    } catch (err) {
      const e = readError(err);
      if (e.code === 'CONFLICT') setConflict({ message: errorText(e), current: e.current });
      else {
        setFieldErrors(fieldErrorsOf(e));
        setFailure(errorText(e));
      }
      toast.error(failToast);
      return false;
    } finally {
      setSaving(false);
    }
  };

  const banner = conflict ? (
    <ConflictBanner
      title={t('rec.conflictTitle')}
      message={conflict.message}
      loadLabel={t('rec.loadCurrent')}
      onDismiss={() => setConflict(null)}
      onLoad={() => {
        if (conflict.current) onLoadCurrent(conflict.current);
        setConflict(null);
      }}
    />
  ) : failure ? (
    <Banner variant="critical" title={t('rec.saveFailedTitle')} description={failure} onDismiss={() => setFailure(null)} />
  ) : null;

  return { saving, fieldErrors, run, reset, banner };
}

/**
 * The record side of a detail screen: puts the loaded record into the editor, reports a failed load,
 * and returns the save flow whose "load the current values" (after a CONFLICT) reloads the editor.
 * `toForm` must be stable (a module-level function).
 */
export function useRecordDetail<R, V>(
  editor: { load(v: V): void; setEditing(editing: boolean): void },
  record: R | null | undefined,
  error: unknown,
  toForm: (r: R) => V,
  fetchFailed: string,
) {
  const { load, setEditing } = editor;
  useEffect(() => {
    if (record) load(toForm(record));
  }, [record, load, toForm]);
  // Without the record the frame's panel says why (not found, or the load failed): one message, in
  // place. A toast is for a failed reload of a record that is on screen.
  useEffect(() => {
    if (error && record) toast.error(fetchFailed);
  }, [error, record, fetchFailed]);
  return useSaveFlow((current) => {
    load(toForm(current as R));
    setEditing(false);
  });
}

/**
 * The record a detail route names: a new one, or an id. An id that is not a whole number from 1 to
 * 2147483647 names no record (`valid` false: the page asks nothing and shows "not found").
 */
export function recordIdOf(def: PageDef, id?: string): { isNew: boolean; numericId: number; valid: boolean } {
  const isNew = def.mode === 'new' || !id || id === 'new';
  const n = isNew || !/^[1-9]\d{0,9}$/.test(id) ? 0 : Number(id);
  return { isNew, numericId: n <= 2147483647 ? n : 0, valid: isNew || (n >= 1 && n <= 2147483647) };
}

/** Record kinds with their own success and failure toasts (`toast.created.<kind>`, …). */
export type RecordKind = 'employee' | 'department' | 'computer' | 'smartphone' | 'officeAccount';

/**
 * Leaving a detail screen the spec's way. `cancel`: with unsaved changes it asks first; a new record
 * goes back to the list, an existing one gets its loaded values back and returns to view mode.
 * `saved`: the success toast, then back to the list. Any other way out (a link, the back button,
 * closing the tab) asks while there are unsaved changes. `submit`: runs a save through the save flow
 * with the kind's toasts. `frame`: the DetailFrame props every record screen sets the same way.
 */
export function useDetailExit(opts: {
  editor: { dirty: boolean; editing: boolean; restore(): void; setEditing(editing: boolean): void };
  flow: { reset(): void; run(save: () => Promise<unknown>, failToast: string): Promise<boolean>; saving: boolean; banner: ReactNode };
  isNew: boolean;
  list: string;
  confirm(req: ConfirmRequest): Promise<boolean>;
}) {
  const t = useT();
  const navigate = useNavigate();
  const labels = useDetailLabels();
  const errorText = useErrorText();
  const { editor, flow, isNew, list, confirm } = opts;
  // Leaving by a link or the back button asks as Cancel does; closing the tab asks the browser's way.
  useLeaveGuard(editor.editing && editor.dirty);
  const cancel = async (onReset?: () => void) => {
    const ok = !editor.dirty || (await confirm({ title: t('rec.cancelTitle'), body: t('rec.cancelBody'), confirmLabel: t('rec.yes'), cancelLabel: t('rec.no') }));
    if (!ok) return;
    flow.reset();
    onReset?.();
    if (isNew) leaveOnPurpose(() => navigate(list));
    else {
      editor.restore();
      editor.setEditing(false);
    }
  };
  const saved = (message: string) => {
    toast.success(message);
    leaveOnPurpose(() => navigate(list));
  };
  /** Saves (`write` creates or updates); on success the kind's toast and back to the list. */
  const submit = async (kind: RecordKind, write: () => Promise<unknown>) => {
    if (await flow.run(write, t(`toast.saveFailed.${kind}`))) saved(t(isNew ? `toast.created.${kind}` : `toast.updated.${kind}`));
  };
  /**
   * `loading`: the record is being fetched (never for a new one). `found`: it arrived; when it did
   * not and is not loading, the frame says why (no such record, or the load failed) instead of
   * offering an empty form.
   */
  const frame = (o: { id: number; loading: boolean; found: boolean; error?: unknown; onCancel(): void; onSubmit(): void }) => ({
    chips: [!isNew && o.id > 0 ? t('record.id', { id: o.id }) : null, editor.editing && !isNew ? t('rec.editing') : null],
    backTo: list,
    labels,
    editing: editor.editing,
    saving: flow.saving,
    loading: !isNew && o.loading,
    onEdit: () => editor.setEditing(true),
    onCancel: o.onCancel,
    onSubmit: o.onSubmit,
    banner: flow.banner,
    unavailable: isNew || o.loading || o.found ? undefined : unavailable(o.error),
  });
  const unavailable = (error: unknown) => {
    const e = error ? readError(error) : null;
    return !e || e.code === 'NOT_FOUND' || e.code === 'BAD_USER_INPUT'
      ? { title: t('rec.notFoundTitle'), body: t('rec.notFoundBody') }
      : { title: t('rec.loadFailedTitle'), body: errorText(e) };
  };
  return { cancel, saved, submit, frame };
}
