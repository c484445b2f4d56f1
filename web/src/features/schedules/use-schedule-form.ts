import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { useI18n, type Translate } from '../../app/i18n';
import { useLeaveGuard } from '../../app/leave-guard';
import type { ScheduleFieldsFragment } from '../../gql/graphql';
import { useConflictMerge, type MergeFields } from '../../components/record-merge';
import { toast } from '../../components/Toast';
import { describeError, type ScheduleProblem } from './errors';
import { typeLabel } from './format';
import { useChangeListener, type LiveChange } from './live';
import {
  CreateScheduleMutation,
  DeleteScheduleMutation,
  RespondToScheduleMutation,
  UpdateScheduleMutation,
} from './operations';
import {
  ERRORS_CLEARED_BY,
  fromSchedule,
  movedOrRestaffed,
  sameForm,
  toInput,
  validate,
  withDate,
  withEndDate,
  withoutErrors,
  withStart,
  type FieldErrors,
  type ScheduleFormValues,
} from './schedule-form';

export type ScheduleRole = 'owner' | 'guest' | 'viewer';
export type Busy = null | 'save' | 'delete' | 'accept' | 'decline';
export type RemoteChange = { kind: 'updated'; schedule: ScheduleFieldsFragment } | { kind: 'deleted' };

/**
 * The state of one open schedule form and what can be done with it: edit fields, save (create or
 * update), delete, answer an invitation, and follow other people's changes to the same entry.
 */
export function useScheduleForm(opts: {
  initial: ScheduleFormValues;
  owner: { id: number; name: string };
  schedule?: ScheduleFieldsFragment;
  /** The server's current copy, once it arrives (the dialog opened with a row's copy). */
  fresh?: ScheduleFieldsFragment;
  onChanged(change: LiveChange): void;
  onClose(): void;
  /** Where to put the focus when the title is missing. */
  focusTitle(): void;
}) {
  const { t, locale } = useI18n();
  const { initial, owner, schedule, fresh, onChanged, onClose, focusTitle } = opts;
  const creating = !schedule;
  const [current, setCurrent] = useState<ScheduleFieldsFragment | undefined>(schedule);
  const role: ScheduleRole = creating || current?.canEdit ? 'owner' : current?.canRespond ? 'guest' : 'viewer';
  const editable = role === 'owner';

  const [form, setForm] = useState<ScheduleFormValues>(initial);
  const [baseline, setBaseline] = useState<ScheduleFormValues>(initial);
  const [version, setVersion] = useState(schedule?.version);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<ScheduleProblem | null>(null);
  const [remote, setRemote] = useState<RemoteChange | null>(null);
  const [busy, setBusy] = useState<Busy>(null);

  const [createSchedule] = useMutation(CreateScheduleMutation);
  const [updateSchedule] = useMutation(UpdateScheduleMutation);
  const [deleteSchedule] = useMutation(DeleteScheduleMutation);
  const [respond] = useMutation(RespondToScheduleMutation);

  const dirty = !sameForm(form, baseline);
  // A link or the back button asks before the edits go; so does closing the tab.
  useLeaveGuard(editable && dirty && busy !== 'save');

  /** Shows the latest version of the entry: at once if nothing would be lost, else offers it. */
  const receive = (latest: ScheduleFieldsFragment) => {
    if (!current || latest.id !== current.id) return;
    const newer = latest.version > (version ?? 0);
    if (role === 'owner' && latest.canEdit && newer && (dirty || busy)) {
      if (!busy) setRemote({ kind: 'updated', schedule: latest });
      return;
    }
    setCurrent(latest);
    if (newer || !editable) {
      const next = fromSchedule(latest);
      setForm(next);
      setBaseline(next);
      setVersion(latest.version);
    }
  };

  // The dialog opens with the row's copy; the server's current one follows.
  const receiveRef = useRef(receive);
  receiveRef.current = receive;
  useEffect(() => {
    if (fresh) receiveRef.current(fresh);
  }, [fresh]);

  useChangeListener((change) => {
    if (!current || change.scheduleId !== current.id || busy) return;
    if (change.kind === 'deleted' || !change.schedule) setRemote({ kind: 'deleted' });
    else if (change.schedule.busyOnly) setRemote({ kind: 'deleted' });
    else receive(change.schedule);
  });

  // After a refused save (or another screen's save while this one has edits): the edits stay, the
  // saved entry is merged in three ways, and fields both changed are offered for a choice.
  const conflictMerge = useConflictMerge(
    {
      loaded: baseline,
      values: form,
      rebase: (saved, merged) => {
        setBaseline(saved);
        setForm(merged);
      },
      set: (key, value) => setForm((f) => ({ ...f, [key]: value })),
    },
    mergeFields(t),
    sameScheduleField,
  );
  const mergeLatest = (latest: ScheduleFieldsFragment) => {
    setCurrent(latest);
    setVersion(latest.version);
    setRemote(null);
    setErrors({});
    conflictMerge.merge(fromSchedule(latest));
  };

  const loadLatest = (latest: ScheduleFieldsFragment) => {
    const next = fromSchedule(latest);
    setCurrent(latest);
    setForm(next);
    setBaseline(next);
    setVersion(latest.version);
    setRemote(null);
    setProblem(null);
    setErrors({});
    conflictMerge.clear();
  };

  /** One edit: `change` derives the next values; the errors of the fields it touches go. */
  const edit = (key: keyof ScheduleFormValues, change: (f: ScheduleFormValues) => ScheduleFormValues) => {
    setForm(change);
    setErrors((e) => withoutErrors(e, ERRORS_CLEARED_BY[key] ?? [key]));
  };
  const set = <K extends keyof ScheduleFormValues>(key: K, value: ScheduleFormValues[K]) =>
    edit(key, (f) => ({ ...f, [key]: value }));
  const setStart = (start: string) => edit('startTime', (f) => withStart(f, start));
  const setDate = (date: string) => {
    if (date) edit('date', (f) => withDate(f, date));
  };
  const setEndDate = (endDate: string) => setForm((f) => withEndDate(f, endDate));

  const save = async () => {
    conflictMerge.clear();
    const found: FieldErrors = Object.fromEntries(Object.entries(validate(form)).map(([k, key]) => [k, t(key)]));
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) {
      if (found.title) focusTitle();
      return;
    }
    setBusy('save');
    try {
      if (creating) {
        const { data } = await createSchedule({ variables: { input: toInput(form) } });
        const s = data!.createSchedule;
        toast.success(t('schedules.toast.created'));
        onChanged({ kind: 'created', scheduleId: s.id, schedule: s });
      } else {
        const { data } = await updateSchedule({ variables: { id: current!.id, input: toInput(form, version) } });
        const s = data!.updateSchedule;
        toast.success(t('schedules.toast.updated'));
        onChanged({ kind: 'updated', scheduleId: s.id, schedule: s });
      }
      onClose();
    } catch (err) {
      const p = describeError(err, locale, t);
      // Said once, in the dialog (the notice above the fields, and each field's error): no toast.
      setErrors(p.fieldErrors);
      setProblem(p);
      setBusy(null);
      // Someone saved first: their entry merges into this form, which then saves against it.
      if (p.code === 'CONFLICT' && p.conflict?.current) mergeLatest({ ...p.conflict.current, canEdit: true });
    }
  };

  const remove = async () => {
    setBusy('delete');
    try {
      await deleteSchedule({ variables: { id: current!.id } });
      toast.success(t('schedules.toast.deleted'));
      onChanged({ kind: 'deleted', scheduleId: current!.id, schedule: null });
      onClose();
      return true;
    } catch (err) {
      const p = describeError(err, locale, t);
      setBusy(null);
      setProblem(p);
      toast.error(t('schedules.toast.deleteFailed'), p.message);
      return false;
    }
  };

  const answer = async (accept: boolean) => {
    setBusy(accept ? 'accept' : 'decline');
    try {
      const { data } = await respond({ variables: { id: current!.id, accept } });
      const s = data!.respondToSchedule;
      toast.success(accept ? t('schedules.toast.accepted') : t('schedules.toast.declined'));
      setBusy(null);
      loadLatest(s);
      onChanged({ kind: 'responded', scheduleId: s.id, schedule: s });
    } catch (err) {
      setBusy(null);
      toast.error(t('schedules.toast.respondFailed'), describeError(err, locale, t).message);
    }
  };

  // The conflict hint: while creating, or when the owner moves the entry or changes attendees.
  const moved = creating || (editable && movedOrRestaffed(form, baseline));
  const attendeeIds = useMemo(() => [owner.id, ...form.guests.map((g) => g.id)], [owner.id, form.guests]);

  return {
    creating,
    owner,
    current,
    role,
    editable,
    form,
    dirty,
    errors,
    problem,
    remote,
    busy,
    moved,
    attendeeIds,
    set,
    setStart,
    setDate,
    setEndDate,
    loadLatest,
    /** Takes a newer saved entry in without losing the edits (three-way merge). */
    mergeLatest,
    mergePanel: conflictMerge.panel,
    save,
    remove,
    answer,
  };
}

export type ScheduleFormModel = ReturnType<typeof useScheduleForm>;

/** Attendees are the same people whatever they answered; the start-time helper flag never clashes. */
function sameScheduleField(key: keyof ScheduleFormValues, a: unknown, b: unknown): boolean {
  if (key === 'autoEndDate') return true;
  if (key === 'guests')
    return (a as { id: number }[]).map((g) => g.id).join() === (b as { id: number }[]).map((g) => g.id).join();
  return JSON.stringify(a) === JSON.stringify(b);
}

function mergeFields(t: Translate): MergeFields<ScheduleFormValues> {
  return {
    title: t('schedules.field.title'),
    date: t('schedules.field.date'),
    endDate: t('schedules.field.endDate'),
    isAllDay: t('schedules.field.allDay'),
    startTime: t('schedules.field.startTime'),
    endTime: t('schedules.field.endTime'),
    guests: t('schedules.field.attendees'),
    externalGuests: t('schedules.field.externalGuests'),
    type: {
      label: t('schedules.field.type'),
      options: (['TASK', 'REMOTE', 'APPOINTMENT'] as const).map((v) => ({ value: v, label: typeLabel(t, v) })),
    },
    meetLink: t('schedules.field.meetLink'),
    syncGoogle: t('schedules.field.syncGoogle'),
    isPrivate: t('schedules.field.private'),
    description: t('schedules.field.description'),
  };
}
