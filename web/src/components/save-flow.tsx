import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Banner } from '@primer/react';
import type { PageDef } from '../app/areas';
import { leaveOnPurpose, useLeaveGuard } from '../app/leave-guard';
import { useT } from '../app/i18n';
import type { ConfirmRequest } from './ConfirmDialog';
import { readError } from './gql-errors';
import { useDetailLabels, useErrorText, useFieldErrors } from './labels';
import { useConflictMerge, type MergeFields } from './record-merge';
import { toast } from './Toast';

/**
 * Saving a detail form, one message per failure: the field errors under their fields, or (naming no
 * field) the banner; a CONFLICT is reported to `onConflict` (which fetches the saved record to merge
 * with) and kept in `conflict`: its merge panel is the message then.
 */
export function useSaveFlow(onConflict: () => void) {
  const t = useT();
  const errorText = useErrorText();
  const fieldErrorsOf = useFieldErrors();
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState<{ message: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  /** Failed saves so far: each one brings what went wrong into view (DetailFrame). */
  const [failures, setFailures] = useState(0);

  const reset = () => {
    setFieldErrors({});
    setConflict(null);
    setFailure(null);
  };

  /** Runs the save; false when it failed (messages already shown). */
  const run = async (save: () => Promise<unknown>): Promise<boolean> => {
    reset();
    setSaving(true);
    try {
      await save();
      return true;
    } catch (err) {
      const e = readError(err);
      if (e.code === 'CONFLICT') {
        setConflict({ message: errorText(e) });
        onConflict();
      } else {
        // One message per failure: under the fields it names, or (naming none) once in the banner.
        const fields = fieldErrorsOf(e);
        setFieldErrors(fields);
        setFailure(Object.keys(fields).length ? null : errorText(e));
        setFailures((n) => n + 1);
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  const banner = failure ? (
    <Banner
      variant="critical"
      title={t('rec.saveFailedTitle')}
      description={failure}
      onDismiss={() => setFailure(null)}
    />
  ) : null;

  return { saving, fieldErrors, run, reset, banner, conflict, failures };
}

/**
 * The record side of a detail screen: puts the loaded record into the editor, reports a failed load,
 * and returns the save flow. A save refused by CONFLICT fetches the saved record again; when it
 * arrives while the user has edits, it is merged three ways into the form (useConflictMerge) and the
 * user saves against it. `toForm` must be stable (a module-level function).
 */
export function useRecordDetail<R, V extends object>(
  editor: {
    load(v: V): void;
    loaded: V;
    values: V;
    editing: boolean;
    dirty: boolean;
    rebase(saved: V, merged: V): void;
    set<K extends keyof V>(key: K, value: V[K]): void;
  },
  o: {
    record: R | null | undefined;
    error: unknown;
    toForm: (r: R) => V;
    fetchFailed: string;
    refetch(): void;
    fields: MergeFields<V>;
  },
) {
  const t = useT();
  const { load } = editor;
  const { record, error, toForm, fetchFailed } = o;
  const conflictMerge = useConflictMerge(editor, o.fields);
  // The effect below must see the form as it is when the record arrives, not as it was rendered.
  const latest = useRef({ editor, merge: conflictMerge.merge });
  latest.current = { editor, merge: conflictMerge.merge };
  // Before paint: otherwise the frame, no longer loading, shows the empty form for one frame (「未設定」 where a value is coming).
  useLayoutEffect(() => {
    if (!record) return;
    const { editor: ed, merge } = latest.current;
    if (ed.editing && ed.dirty) merge(toForm(record));
    else load(toForm(record));
  }, [record, load, toForm]);
  // Without the record the frame's panel says why (not found, or the load failed): one message, in
  // place. A toast is for a failed reload of a record that is on screen.
  useEffect(() => {
    if (error && record) toast.error(fetchFailed);
  }, [error, record, fetchFailed]);
  const flow = useSaveFlow(o.refetch);
  const merged = flow.conflict ? conflictMerge.panel(t('rec.conflictTitle'), flow.conflict.message) : null;
  return {
    ...flow,
    // Until the saved record is back (a moment), the conflict says so on its own.
    banner: flow.conflict
      ? (merged ?? (
          <Banner
            variant="warning"
            title={t('rec.conflictTitle')}
            description={flow.conflict.message}
            data-testid="conflict-banner"
          />
        ))
      : flow.banner,
    reset: () => {
      flow.reset();
      conflictMerge.clear();
    },
  };
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
export type RecordKind = 'employee' | 'department' | 'computer' | 'smartphone' | 'officeAccount' | 'blogCategory';

/**
 * Leaving a detail screen the spec's way. `cancel`: with unsaved changes it asks first; a new record
 * goes back to the list, an existing one gets its loaded values back and returns to view mode.
 * `saved`: the success toast, then back to the list. Any other way out (a link, the back button,
 * closing the tab) asks while there are unsaved changes. `submit`: runs a save through the save flow
 * with the kind's toasts. `frame`: the DetailFrame props every record screen sets the same way.
 */
export function useDetailExit(opts: {
  editor: { dirty: boolean; editing: boolean; restore(): void; setEditing(editing: boolean): void };
  flow: {
    reset(): void;
    run(save: () => Promise<unknown>): Promise<boolean>;
    saving: boolean;
    banner: ReactNode;
    failures: number;
  };
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
    const ok =
      !editor.dirty ||
      (await confirm({
        title: t('rec.cancelTitle'),
        body: t('rec.cancelBody'),
        confirmLabel: t('rec.yes'),
        cancelLabel: t('rec.no'),
      }));
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
    if (await flow.run(write)) saved(t(isNew ? `toast.created.${kind}` : `toast.updated.${kind}`));
  };
  /**
   * `loading`: the record is being fetched (never for a new one). `found`: it arrived; when it did
   * not and is not loading, the frame says why (no such record, or the load failed) instead of
   * offering an empty form.
   */
  const frame = (o: {
    id: number;
    loading: boolean;
    found: boolean;
    error?: unknown;
    onCancel(): void;
    onSubmit(): void;
  }) => ({
    chips: [
      !isNew && o.id > 0 ? t('record.id', { id: o.id }) : null,
      editor.editing && !isNew ? t('rec.editing') : null,
    ],
    backTo: list,
    labels,
    editing: editor.editing,
    saving: flow.saving,
    loading: !isNew && o.loading,
    onEdit: () => editor.setEditing(true),
    onCancel: o.onCancel,
    onSubmit: o.onSubmit,
    banner: flow.banner,
    failures: flow.failures,
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
