import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Checkbox, ConfirmationDialog, Dialog, IconButton, Label, Select, Spinner, TextInput, Textarea } from '@primer/react';
import { AlertIcon, PeopleIcon, PlusIcon, SyncIcon, XIcon } from '@primer/octicons-react';
import { useI18n } from '../../app/i18n';
import { CheckboxField, Field } from '../../components/Field';
import type { ScheduleFieldsFragment, ScheduleInput, ScheduleType } from '../../gql/graphql';
import { AttendeePicker, type Attendee } from './AttendeePicker';
import { ConflictHint } from './ConflictHint';
import { addDays, daysBetween, hhmm, nextSlot, oneHourLater, TIME_SLOTS } from './dates';
import { describeError, type ScheduleProblem } from './errors';
import { responseLabel, typeLabel } from './format';
import { useChangeListener, type LiveChange } from './live';
import { CreateScheduleMutation, DeleteScheduleMutation, RespondToScheduleMutation, ScheduleQuery, UpdateScheduleMutation } from './operations';
import { toast } from '../../components/Toast';
import type { DialogState } from './use-schedule-screen';
import styles from './ScheduleDialog.module.css';

interface Props {
  state: DialogState;
  /** Set when a loading stand-in was on screen: the dialog then replaces it without a second entrance. */
  standIn?: { current: boolean };
  me: { id: number; name: string };
  narrow: boolean;
  onClose(): void;
  onChanged(change: LiveChange): void;
}

type Guest = Attendee & { response?: ScheduleFieldsFragment['guests'][number]['response'] };

interface FormState {
  title: string;
  date: string;
  endDate: string;
  isAllDay: boolean;
  startTime: string;
  endTime: string;
  /** The end date was moved to the next day by a start time near midnight (not by the user). */
  autoEndDate: boolean;
  guests: Guest[];
  externalGuests: string[];
  type: ScheduleType;
  meetLink: string;
  syncGoogle: boolean;
  isPrivate: boolean;
  description: string;
}

const RESPONSE_VARIANT = { ACCEPTED: 'success', DECLINED: 'secondary', PENDING: 'attention' } as const;

function createDefaults(date: string, attendee?: { id: number; name: string }): FormState {
  const start = nextSlot();
  const end = oneHourLater(start);
  return {
    title: '',
    date,
    endDate: end.wraps ? addDays(date, 1) : date,
    isAllDay: false,
    startTime: start,
    endTime: end.time,
    autoEndDate: end.wraps,
    guests: attendee ? [{ id: attendee.id, name: attendee.name }] : [],
    externalGuests: [],
    type: 'TASK',
    meetLink: '',
    syncGoogle: true,
    isPrivate: false,
    description: '',
  };
}

function fromSchedule(s: ScheduleFieldsFragment): FormState {
  return {
    title: s.title ?? '',
    date: s.date,
    endDate: s.endDate,
    isAllDay: s.isAllDay,
    startTime: hhmm(s.startTime) || '09:00',
    endTime: hhmm(s.endTime) || '10:00',
    autoEndDate: false,
    guests: s.guests.map((g) => ({ id: g.id, name: g.name, response: g.response })),
    externalGuests: [...s.externalGuests],
    type: s.type ?? 'TASK',
    meetLink: s.meetLink ?? '',
    syncGoogle: s.syncGoogle,
    isPrivate: s.isPrivate,
    description: s.description ?? '',
  };
}

function toInput(f: FormState, version?: number): ScheduleInput {
  return {
    title: f.title.trim(),
    date: f.date,
    endDate: f.endDate || f.date,
    isAllDay: f.isAllDay,
    startTime: f.isAllDay ? null : f.startTime,
    endTime: f.isAllDay ? null : f.endTime,
    type: f.type,
    meetLink: f.type === 'REMOTE' ? f.meetLink.trim() || null : null,
    description: f.description.trim() || null,
    syncGoogle: f.syncGoogle,
    isPrivate: f.isPrivate,
    guestIds: f.guests.map((g) => g.id),
    // Extra-guest rows: trimmed, blank rows dropped.
    externalGuests: f.externalGuests.map((e) => e.trim()).filter(Boolean),
    ...(version !== undefined ? { version } : {}),
  };
}

const sameForm = (a: FormState, b: FormState) => JSON.stringify(toInput(a)) === JSON.stringify(toInput(b));

/** "予定作成" (create) and "予定詳細" (detail: owner edits, a guest answers, everyone else reads). */
export default function ScheduleDialog(props: Props) {
  const { state } = props;
  if (state.kind === 'create') {
    return <ScheduleForm {...props} initial={createDefaults(state.date, state.attendee)} owner={props.me} />;
  }
  return <DetailLoader {...props} id={state.id} initialSchedule={state.initial} />;
}

function DetailLoader(props: Props & { id: number; initialSchedule?: ScheduleFieldsFragment }) {
  const { t, locale } = useI18n();
  const { data, error } = useQuery(ScheduleQuery, { variables: { id: props.id }, fetchPolicy: 'network-only' });
  const schedule = data?.schedule ?? props.initialSchedule;
  const position = props.narrow ? ({ narrow: 'fullscreen', regular: 'center' } as const) : 'center';
  if (!schedule) {
    // Opened from a grid cell: the form waits for the whole entry (guests, content), never a cell's copy.
    // The form then takes this dialog's place without a second entrance.
    if (props.standIn && !error) props.standIn.current = true;
    return (
      <Dialog title={t('schedules.dialog.detailTitle')} onClose={props.onClose} width={error ? 'large' : 'xlarge'} position={position} footerButtons={[{ content: t('schedules.close'), onClick: props.onClose }]}>
        {error ? (
          <p className={styles.loadError} role="alert">
            {describeError(error, locale, t).message}
          </p>
        ) : (
          <div className={styles.loading}>
            <Spinner srText={t('common.loading')} />
          </div>
        )}
      </Dialog>
    );
  }
  // Opened from a row that is already stale: the entry is gone or no longer visible.
  const gone = !!error && describeError(error, locale, t).code === 'NOT_FOUND';
  return <ScheduleForm {...props} schedule={schedule} fresh={data?.schedule} gone={gone} initial={fromSchedule(schedule)} owner={schedule.owner} />;
}

function ScheduleForm({
  narrow,
  standIn,
  onClose,
  onChanged,
  initial,
  owner,
  schedule,
  fresh,
  gone,
}: Props & { initial: FormState; owner: { id: number; name: string }; schedule?: ScheduleFieldsFragment; fresh?: ScheduleFieldsFragment; gone?: boolean }) {
  const { t, locale } = useI18n();
  const creating = !schedule;
  const [instant] = useState(() => !!standIn?.current);
  useEffect(() => {
    if (standIn) standIn.current = false;
  }, [standIn]);
  const [current, setCurrent] = useState<ScheduleFieldsFragment | undefined>(schedule);
  const role: 'owner' | 'guest' | 'viewer' = creating || current?.canEdit ? 'owner' : current?.canRespond ? 'guest' : 'viewer';
  const editable = role === 'owner';

  const [form, setForm] = useState<FormState>(initial);
  const [baseline, setBaseline] = useState<FormState>(initial);
  const [version, setVersion] = useState(schedule?.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<ScheduleProblem | null>(null);
  const [remote, setRemote] = useState<{ kind: 'updated'; schedule: ScheduleFieldsFragment } | { kind: 'deleted' } | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState<null | 'save' | 'delete' | 'accept' | 'decline'>(null);
  const titleRef = useRef<HTMLInputElement>(null);

  const [createSchedule] = useMutation(CreateScheduleMutation);
  const [updateSchedule] = useMutation(UpdateScheduleMutation);
  const [deleteSchedule] = useMutation(DeleteScheduleMutation);
  const [respond] = useMutation(RespondToScheduleMutation);

  const dirty = !sameForm(form, baseline);

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

  const loadLatest = (latest: ScheduleFieldsFragment) => {
    const next = fromSchedule(latest);
    setCurrent(latest);
    setForm(next);
    setBaseline(next);
    setVersion(latest.version);
    setRemote(null);
    setProblem(null);
    setErrors({});
  };

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (errors[key]) setErrors(({ [key]: _, ...rest }) => rest);
  };

  const onStart = (start: string) => {
    const end = oneHourLater(start);
    setForm((f) => ({
      ...f,
      startTime: start,
      endTime: end.time,
      endDate: end.wraps ? addDays(f.date, 1) : f.autoEndDate ? f.date : f.endDate,
      autoEndDate: end.wraps,
    }));
    setErrors(({ startTime: _s, endTime: _e, endDate: _d, ...rest }) => rest);
  };

  const onDate = (date: string) => {
    if (!date) return;
    setForm((f) => ({ ...f, date, endDate: addDays(date, Math.max(0, daysBetween(f.date, f.endDate))) }));
    setErrors(({ date: _a, endDate: _b, ...rest }) => rest);
  };

  const validate = (f: FormState): Record<string, string> => {
    const e: Record<string, string> = {};
    if (!f.title.trim()) e.title = t('schedules.validation.title');
    if (!f.date) e.date = t('schedules.validation.date');
    if (f.endDate && f.endDate < f.date) e.endDate = t('schedules.validation.endDate');
    else if (!f.isAllDay && (f.endDate || f.date) === f.date && f.endTime <= f.startTime) e.endTime = t('schedules.validation.endTime');
    if (f.type === 'REMOTE' && f.meetLink.trim() && !/^https?:\/\/\S+$/.test(f.meetLink.trim())) e.meetLink = t('schedules.validation.meetLink');
    return e;
  };

  const save = async () => {
    const found = validate(form);
    setErrors(found);
    setProblem(null);
    if (Object.keys(found).length) {
      if (found.title) titleRef.current?.focus();
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
    }
  };

  const remove = async () => {
    setBusy('delete');
    try {
      await deleteSchedule({ variables: { id: current!.id } });
      toast.success(t('schedules.toast.deleted'));
      onChanged({ kind: 'deleted', scheduleId: current!.id, schedule: null });
      onClose();
    } catch (err) {
      const p = describeError(err, locale, t);
      setConfirmDelete(false);
      setBusy(null);
      setProblem(p);
      toast.error(t('schedules.toast.deleteFailed'), p.message);
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
  const moved =
    creating ||
    (editable &&
      (form.date !== baseline.date ||
        form.endDate !== baseline.endDate ||
        form.isAllDay !== baseline.isAllDay ||
        form.startTime !== baseline.startTime ||
        form.endTime !== baseline.endTime ||
        form.guests.map((g) => g.id).join() !== baseline.guests.map((g) => g.id).join()));
  const attendeeIds = useMemo(() => [owner.id, ...form.guests.map((g) => g.id)], [owner.id, form.guests]);

  const title = creating ? t('schedules.dialog.createTitle') : t('schedules.dialog.detailTitle');
  const deleted = remote?.kind === 'deleted' || !!gone;
  const position = narrow ? ({ narrow: 'fullscreen', regular: 'center' } as const) : 'center';
  const left = { style: { marginRight: 'auto' } };

  const footer =
    role === 'owner'
      ? [
          ...(!creating ? [{ content: t('schedules.delete'), buttonType: 'danger' as const, onClick: () => setConfirmDelete(true), disabled: !!busy || deleted, ...left }] : []),
          { content: t('schedules.cancel'), onClick: onClose, disabled: busy === 'save' },
          {
            content: creating ? t('schedules.create') : t('schedules.save'),
            buttonType: 'primary' as const,
            onClick: () => void save(),
            loading: busy === 'save',
            disabled: deleted || (!!busy && busy !== 'save'),
          },
        ]
      : role === 'guest'
        ? [
            { content: t('schedules.close'), onClick: onClose, ...left },
            { content: t('schedules.respond.decline'), onClick: () => void answer(false), loading: busy === 'decline', disabled: deleted || !!busy },
            { content: t('schedules.respond.accept'), buttonType: 'primary' as const, onClick: () => void answer(true), loading: busy === 'accept', disabled: deleted || !!busy },
          ]
        : [{ content: t('schedules.close'), onClick: onClose }];

  const slotOptions = (value: string) => (TIME_SLOTS.includes(value) ? TIME_SLOTS : [...TIME_SLOTS, value].sort());

  return (
    <>
      <Dialog
        title={title}
        subtitle={
          current ? (
            <span className={styles.subtitle}>
              {t('schedules.dialog.owner', { name: current.owner.name })}
              {current.myResponse && (
                <Label size="small" variant={RESPONSE_VARIANT[current.myResponse]}>
                  {t('schedules.dialog.yourResponse', { response: responseLabel(t, current.myResponse) })}
                </Label>
              )}
              {role === 'viewer' && <Label size="small">{t('schedules.dialog.readOnly')}</Label>}
            </span>
          ) : undefined
        }
        onClose={() => (busy === 'save' ? undefined : onClose())}
        width="xlarge"
        position={position}
        footerButtons={footer}
        className={instant ? `${styles.dialog} ${styles.instant}` : styles.dialog}
        data-testid="schedule-dialog"
        data-role={role}
      >
        <form
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (editable) void save();
          }}
        >
          {deleted && (
            <div className={styles.notice} data-tone="danger" role="alert">
              <AlertIcon size={16} />
              <span>{t('schedules.dialog.deletedElsewhere')}</span>
            </div>
          )}
          {/* The conflict notice below says the same with who and offers the same button: one of them. */}
          {remote?.kind === 'updated' && problem?.code !== 'CONFLICT' && (
            <div className={styles.notice} data-tone="attention" role="status">
              <SyncIcon size={16} />
              <span className={styles.noticeText}>{t('schedules.dialog.changedElsewhere')}</span>
              <Button size="small" onClick={() => loadLatest(remote.schedule)}>
                {t('schedules.dialog.loadLatest')}
              </Button>
            </div>
          )}
          {problem && problem.code === 'CONFLICT' ? (
            <div className={styles.notice} data-tone="attention" role="alert" data-testid="conflict-notice">
              <AlertIcon size={16} />
              <span className={styles.noticeText}>
                <strong>{problem.conflict?.updatedBy ? t('schedules.conflict.by', { name: problem.conflict.updatedBy }) : t('schedules.conflict.title')}</strong>
                <span>{problem.message}</span>
              </span>
              {problem.conflict?.current && (
                <Button size="small" onClick={() => loadLatest({ ...problem.conflict!.current!, canEdit: true })}>
                  {t('schedules.dialog.loadLatest')}
                </Button>
              )}
            </div>
          ) : problem ? (
            <div className={styles.notice} data-tone="danger" role="alert" data-testid="save-problem">
              <AlertIcon size={16} />
              <span className={styles.noticeText}>{problem.message}</span>
            </div>
          ) : null}

          <div className={styles.grid}>
            <div className={styles.full}>
              <Field label={t('schedules.field.title')} required={editable} error={errors.title}>
                {(c) => (
                  <TextInput
                    {...c}
                    ref={titleRef}
                    block
                    value={form.title}
                    readOnly={!editable}
                    onChange={(e) => set('title', e.target.value)}
                    placeholder={editable ? t('schedules.field.titlePlaceholder') : undefined}
                    maxLength={200}
                    data-testid="field-title"
                  />
                )}
              </Field>
            </div>

            <Field label={t('schedules.field.date')} required={editable} error={errors.date}>
              {(c) => <TextInput {...c} block type="date" value={form.date} readOnly={!editable} onChange={(e) => onDate(e.target.value)} data-testid="field-date" />}
            </Field>
            <Field label={t('schedules.field.endDate')} error={errors.endDate}>
              {(c) => (
                <TextInput
                  {...c}
                  block
                  type="date"
                  value={form.endDate}
                  min={form.date}
                  readOnly={!editable}
                  onChange={(e) => setForm((f) => ({ ...f, endDate: e.target.value || f.date, autoEndDate: false }))}
                  data-testid="field-end-date"
                />
              )}
            </Field>

            <div className={styles.full}>
              <CheckboxField label={t('schedules.field.allDay')}>
                {(c) => <Checkbox {...c} checked={form.isAllDay} disabled={!editable} onChange={(e) => set('isAllDay', e.target.checked)} data-testid="field-all-day" />}
              </CheckboxField>
            </div>

            {!form.isAllDay && (
              <>
                <Field label={t('schedules.field.startTime')} required={editable} error={errors.startTime}>
                  {(c) =>
                    !editable ? (
                      <TextInput {...c} block readOnly value={form.startTime} data-testid="field-start-time" />
                    ) : (
                      <Select {...c} block value={form.startTime} onChange={(e) => onStart(e.target.value)} data-testid="field-start-time">
                        {slotOptions(form.startTime).map((s) => (
                          <Select.Option key={s} value={s}>
                            {s}
                          </Select.Option>
                        ))}
                      </Select>
                    )
                  }
                </Field>
                <Field label={t('schedules.field.endTime')} required={editable} error={errors.endTime}>
                  {(c) =>
                    !editable ? (
                      <TextInput {...c} block readOnly value={form.endTime} data-testid="field-end-time" />
                    ) : (
                      <Select {...c} block value={form.endTime} onChange={(e) => set('endTime', e.target.value)} data-testid="field-end-time">
                        {slotOptions(form.endTime).map((s) => (
                          <Select.Option key={s} value={s}>
                            {s}
                          </Select.Option>
                        ))}
                      </Select>
                    )
                  }
                </Field>
              </>
            )}

            {editable && moved && !deleted && (
              <ConflictHint
                className={styles.full}
                employeeIds={attendeeIds}
                date={form.date}
                endDate={form.endDate || form.date}
                isAllDay={form.isAllDay}
                startTime={form.startTime}
                endTime={form.endTime}
                excludeId={current?.id}
              />
            )}

            <Field label={t('schedules.field.type')} error={errors.type}>
              {(c) =>
                !editable ? (
                  <TextInput {...c} block readOnly value={typeLabel(t, form.type)} data-testid="field-type" />
                ) : (
                  <Select {...c} block value={form.type} onChange={(e) => set('type', e.target.value as ScheduleType)} data-testid="field-type">
                    <Select.Option value="TASK">{typeLabel(t, 'TASK')}</Select.Option>
                    <Select.Option value="REMOTE">{typeLabel(t, 'REMOTE')}</Select.Option>
                    <Select.Option value="APPOINTMENT">{typeLabel(t, 'APPOINTMENT')}</Select.Option>
                  </Select>
                )
              }
            </Field>
            {form.type === 'REMOTE' ? (
              <Field label={t('schedules.field.meetLink')} error={errors.meetLink}>
                {(c) =>
                  !editable && form.meetLink ? (
                    <a id={c.id} className={styles.link} href={form.meetLink} target="_blank" rel="noreferrer noopener">
                      {form.meetLink}
                    </a>
                  ) : (
                    <TextInput
                      {...c}
                      block
                      type="url"
                      value={form.meetLink}
                      readOnly={!editable}
                      placeholder="https://meet.google.com/…"
                      onChange={(e) => set('meetLink', e.target.value)}
                      data-testid="field-meet-link"
                    />
                  )
                }
              </Field>
            ) : (
              <div aria-hidden="true" className={styles.spacer} />
            )}

            <div className={styles.full}>
              <AttendeesField
                guests={form.guests}
                owner={owner}
                editable={editable && !form.isPrivate}
                showResponses={!creating}
                error={errors.guestIds}
                caption={editable && form.isPrivate ? t('schedules.field.privateNoGuests') : undefined}
                onPick={() => setPickerOpen(true)}
                onRemove={(id) => set('guests', form.guests.filter((g) => g.id !== id))}
              />
            </div>

            <div className={styles.full}>
              <ExternalGuestsField
                rows={form.externalGuests}
                editable={editable && !form.isPrivate}
                error={errors.externalGuests}
                onChange={(rows) => set('externalGuests', rows)}
              />
            </div>

            <div className={`${styles.full} ${styles.checks}`}>
              <CheckboxField label={t('schedules.field.syncGoogle')} caption={t('schedules.field.syncGoogleCaption')}>
                {(c) => <Checkbox {...c} checked={form.syncGoogle} disabled={!editable} onChange={(e) => set('syncGoogle', e.target.checked)} data-testid="field-sync-google" />}
              </CheckboxField>
              <CheckboxField
                label={t('schedules.field.private')}
                caption={editable && (form.guests.length > 0 || form.externalGuests.some((x) => x.trim())) ? t('schedules.field.privateNeedsNoGuests') : t('schedules.field.privateCaption')}
              >
                {(c) => (
                  <Checkbox
                    {...c}
                    checked={form.isPrivate}
                    disabled={!editable || (!form.isPrivate && (form.guests.length > 0 || form.externalGuests.some((x) => x.trim())))}
                    onChange={(e) => set('isPrivate', e.target.checked)}
                    data-testid="field-private"
                  />
                )}
              </CheckboxField>
              {errors.isPrivate && (
                <p className={styles.fieldError} role="alert">
                  <AlertIcon size={12} /> {errors.isPrivate}
                </p>
              )}
            </div>

            <div className={styles.full}>
              <Field label={t('schedules.field.description')} error={errors.description}>
                {(c) => (
                  <Textarea
                    {...c}
                    block
                    rows={narrow ? 4 : 3}
                    resize="vertical"
                    value={form.description}
                    readOnly={!editable}
                    onChange={(e) => set('description', e.target.value)}
                    data-testid="field-description"
                  />
                )}
              </Field>
            </div>
          </div>

          {/* Enter in a text field saves. */}
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
      </Dialog>

      {pickerOpen && (
        <AttendeePicker
          selected={form.guests}
          excludeId={owner.id}
          narrow={narrow}
          onCancel={() => setPickerOpen(false)}
          onConfirm={(list) => {
            const before = new Map(form.guests.map((g) => [g.id, g]));
            set(
              'guests',
              list.map((a) => ({ ...a, response: before.get(a.id)?.response })),
            );
            setPickerOpen(false);
          }}
        />
      )}

      {confirmDelete && (
        <ConfirmationDialog
          title={t('schedules.deleteConfirm.title')}
          onClose={(gesture) => {
            if (gesture === 'confirm') void remove();
            else setConfirmDelete(false);
          }}
          confirmButtonContent={t('schedules.yes')}
          cancelButtonContent={t('schedules.no')}
          confirmButtonType="danger"
          confirmButtonLoading={busy === 'delete'}
        >
          {t('schedules.deleteConfirm.body')}
        </ConfirmationDialog>
      )}
    </>
  );
}

function AttendeesField({
  guests,
  owner,
  editable,
  showResponses,
  error,
  caption,
  onPick,
  onRemove,
}: {
  guests: Guest[];
  owner: { id: number; name: string };
  editable: boolean;
  showResponses: boolean;
  error?: string;
  caption?: string;
  onPick(): void;
  onRemove(id: number): void;
}) {
  const { t } = useI18n();
  return (
    <div className={styles.group} role="group" aria-labelledby="attendees-label" data-testid="field-attendees">
      <div className={styles.groupHead}>
        <span id="attendees-label" className={styles.groupLabel}>
          {t('schedules.field.attendees')}
        </span>
        {editable && (
          <Button size="small" leadingVisual={PeopleIcon} onClick={onPick} data-testid="pick-attendees">
            {t('schedules.field.pickAttendees')}
          </Button>
        )}
      </div>
      <ul className={styles.people}>
        <li className={styles.person} data-owner>
          <span className={styles.personName}>{owner.name}</span>
          <Label size="small" variant="accent">
            {t('schedules.field.ownerTag')}
          </Label>
        </li>
        {guests.map((g) => (
          <li key={g.id} className={styles.person} data-testid="attendee">
            <span className={styles.personName}>{g.name}</span>
            {showResponses && g.response && (
              <Label size="small" variant={RESPONSE_VARIANT[g.response]}>
                {responseLabel(t, g.response)}
              </Label>
            )}
            {editable && (
              <IconButton icon={XIcon} size="small" variant="invisible" aria-label={t('schedules.field.removeAttendee', { name: g.name })} onClick={() => onRemove(g.id)} className={styles.personRemove} />
            )}
          </li>
        ))}
      </ul>
      {guests.length === 0 && <p className={styles.caption}>{t('schedules.field.noAttendees')}</p>}
      {caption && <p className={styles.caption}>{caption}</p>}
      {error && (
        <p className={styles.fieldError} role="alert">
          <AlertIcon size={12} /> {error}
        </p>
      )}
    </div>
  );
}

function ExternalGuestsField({ rows, editable, error, onChange }: { rows: string[]; editable: boolean; error?: string; onChange(rows: string[]): void }) {
  const { t } = useI18n();
  const list = rows.filter((r) => editable || r.trim());
  return (
    <div className={styles.group} role="group" aria-labelledby="external-label" data-testid="field-external-guests">
      <div className={styles.groupHead}>
        <span id="external-label" className={styles.groupLabel}>
          {t('schedules.field.externalGuests')}
        </span>
        {editable && (
          <Button size="small" leadingVisual={PlusIcon} onClick={() => onChange([...rows, ''])} data-testid="add-external-guest">
            {t('schedules.field.addExternalGuest')}
          </Button>
        )}
      </div>
      {list.length === 0 ? (
        <p className={styles.caption}>{t('schedules.field.noExternalGuests')}</p>
      ) : (
        <div className={styles.externalRows}>
          {list.map((value, i) => (
            <div key={i} className={styles.externalRow}>
              <TextInput
                block
                type="email"
                value={value}
                readOnly={!editable}
                placeholder="name@example.com"
                aria-label={t('schedules.field.externalGuestN', { n: i + 1 })}
                onChange={(e) => onChange(rows.map((r, j) => (j === i ? e.target.value : r)))}
                data-testid="external-guest"
              />
              {editable && (
                <IconButton
                  icon={XIcon}
                  variant="invisible"
                  aria-label={t('schedules.field.removeExternalGuest', { n: i + 1 })}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  data-testid="remove-external-guest"
                />
              )}
            </div>
          ))}
        </div>
      )}
      {error && (
        <p className={styles.fieldError} role="alert">
          <AlertIcon size={12} /> {error}
        </p>
      )}
    </div>
  );
}

