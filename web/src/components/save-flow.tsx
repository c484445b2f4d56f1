import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Banner } from '@primer/react';
import { useT } from '../app/i18n';
import type { ConfirmRequest } from './ConfirmDialog';
import { ConflictBanner } from './DetailFrame';
import { readError } from './gql-errors';
import { useErrorText, useFieldErrors } from './labels';
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
  useEffect(() => {
    if (error) toast.error(fetchFailed);
  }, [error, fetchFailed]);
  return useSaveFlow((current) => {
    load(toForm(current as R));
    setEditing(false);
  });
}

/**
 * Leaving a detail screen the spec's way. `cancel`: with unsaved changes it asks first; a new record
 * goes back to the list, an existing one gets its loaded values back and returns to view mode.
 * `saved`: the success toast, then back to the list.
 */
export function useDetailExit(opts: {
  editor: { dirty: boolean; restore(): void; setEditing(editing: boolean): void };
  flow: { reset(): void };
  isNew: boolean;
  list: string;
  confirm(req: ConfirmRequest): Promise<boolean>;
}) {
  const t = useT();
  const navigate = useNavigate();
  const { editor, flow, isNew, list, confirm } = opts;
  const cancel = async (onReset?: () => void) => {
    const ok = !editor.dirty || (await confirm({ title: t('rec.cancelTitle'), body: t('rec.cancelBody'), confirmLabel: t('rec.yes'), cancelLabel: t('rec.no') }));
    if (!ok) return;
    flow.reset();
    onReset?.();
    if (isNew) navigate(list);
    else {
      editor.restore();
      editor.setEditing(false);
    }
  };
  const saved = (message: string) => {
    toast.success(message);
    navigate(list);
  };
  return { cancel, saved };
}
