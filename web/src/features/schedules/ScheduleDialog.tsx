import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@apollo/client/react';
import { Button, ConfirmationDialog, Dialog, Label, Spinner } from '@primer/react';
import { AlertIcon, SyncIcon } from '@primer/octicons-react';
import LeaveQuestion from '../../app/LeaveQuestion';
import { useI18n, type Translate } from '../../app/i18n';
import type { ScheduleFieldsFragment } from '../../gql/graphql';
import { AttendeePicker } from './AttendeePicker';
import { describeError } from './errors';
import { responseLabel } from './format';
import type { LiveChange } from './live';
import { ScheduleQuery } from './operations';
import { createDefaults, fromSchedule, withPickedGuests, type ScheduleFormValues } from './schedule-form';
import { KindSection, OptionsSection, PeopleSection, WhenSection } from './ScheduleFields';
import { RESPONSE_VARIANT } from './ScheduleGuestFields';
import { useScheduleForm, type ScheduleFormModel } from './use-schedule-form';
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
      <Dialog
        title={t('schedules.dialog.detailTitle')}
        onClose={props.onClose}
        width={error ? 'large' : 'xlarge'}
        position={position}
        footerButtons={[{ content: t('schedules.close'), onClick: props.onClose }]}
      >
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
  return (
    <ScheduleForm
      {...props}
      schedule={schedule}
      fresh={data?.schedule}
      gone={gone}
      initial={fromSchedule(schedule)}
      owner={schedule.owner}
    />
  );
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
}: Props & {
  initial: ScheduleFormValues;
  owner: { id: number; name: string };
  schedule?: ScheduleFieldsFragment;
  fresh?: ScheduleFieldsFragment;
  gone?: boolean;
}) {
  const { t } = useI18n();
  const [instant] = useState(() => !!standIn?.current);
  useEffect(() => {
    if (standIn) standIn.current = false;
  }, [standIn]);
  const titleRef = useRef<HTMLInputElement>(null);
  const model = useScheduleForm({
    initial,
    owner,
    schedule,
    fresh,
    onChanged,
    onClose,
    focusTitle: () => titleRef.current?.focus(),
  });
  const { creating, current, role, editable, form, remote, busy } = model;
  const [pickerOpen, setPickerOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [askLeave, setAskLeave] = useState(false);
  // Cancel, ✕ and Escape ask before unsaved edits are dropped (route changes ask through the leave guard).
  const close = () => {
    if (busy === 'save') return;
    if (editable && model.dirty) setAskLeave(true);
    else onClose();
  };

  const title = creating ? t('schedules.dialog.createTitle') : t('schedules.dialog.detailTitle');
  const deleted = remote?.kind === 'deleted' || !!gone;
  const position = narrow ? ({ narrow: 'fullscreen', regular: 'center' } as const) : 'center';

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
        onClose={close}
        width="xlarge"
        position={position}
        footerButtons={footerButtons(model, t, { deleted, onClose: close, onDelete: () => setConfirmDelete(true) })}
        className={instant ? `${styles.dialog} ${styles.instant}` : styles.dialog}
        data-testid="schedule-dialog"
        data-role={role}
      >
        <form
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (editable) void model.save();
          }}
        >
          <Notices model={model} deleted={deleted} />
          <div className={styles.grid}>
            <WhenSection model={model} deleted={deleted} titleRef={titleRef} />
            <KindSection model={model} />
            <PeopleSection model={model} onPick={() => setPickerOpen(true)} />
            <OptionsSection model={model} narrow={narrow} />
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
            model.set('guests', withPickedGuests(form.guests, list));
            setPickerOpen(false);
          }}
        />
      )}

      {confirmDelete && (
        <ConfirmationDialog
          title={t('schedules.deleteConfirm.title')}
          onClose={(gesture) => {
            if (gesture === 'confirm') void model.remove().then((ok) => ok || setConfirmDelete(false));
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

      {askLeave && (
        <LeaveQuestion
          closing
          onAnswer={(leave) => {
            setAskLeave(false);
            if (leave) onClose();
          }}
        />
      )}
    </>
  );
}

/** The buttons each role gets: the owner saves or deletes, a guest answers, anyone else closes. */
function footerButtons(
  model: ScheduleFormModel,
  t: Translate,
  o: { deleted: boolean; onClose(): void; onDelete(): void },
) {
  const { role, creating, busy } = model;
  const left = { style: { marginRight: 'auto' } };
  if (role === 'owner')
    return [
      ...(!creating
        ? [
            {
              content: t('schedules.delete'),
              buttonType: 'danger' as const,
              onClick: o.onDelete,
              disabled: !!busy || o.deleted,
              ...left,
            },
          ]
        : []),
      { content: t('schedules.cancel'), onClick: o.onClose, disabled: busy === 'save' },
      {
        content: creating ? t('schedules.create') : t('schedules.save'),
        buttonType: 'primary' as const,
        onClick: () => void model.save(),
        loading: busy === 'save',
        disabled: o.deleted || (!!busy && busy !== 'save'),
      },
    ];
  if (role === 'guest')
    return [
      { content: t('schedules.close'), onClick: o.onClose, ...left },
      {
        content: t('schedules.respond.decline'),
        onClick: () => void model.answer(false),
        loading: busy === 'decline',
        disabled: o.deleted || !!busy,
      },
      {
        content: t('schedules.respond.accept'),
        buttonType: 'primary' as const,
        onClick: () => void model.answer(true),
        loading: busy === 'accept',
        disabled: o.deleted || !!busy,
      },
    ];
  return [{ content: t('schedules.close'), onClick: o.onClose }];
}

/**
 * Above the fields: deleted elsewhere, changed elsewhere, a refused save. One notice a failure; after
 * a conflict (or taking another screen's save in), the merge panel with the fields to choose.
 */
function Notices({ model, deleted }: { model: ScheduleFormModel; deleted: boolean }) {
  const { t } = useI18n();
  const { remote, problem, mergeLatest, dirty } = model;
  const conflict = problem?.code === 'CONFLICT' ? problem : null;
  const merged = model.mergePanel(
    conflict
      ? conflict.conflict?.updatedBySelf
        ? t('schedules.conflict.self')
        : conflict.conflict?.updatedBy
          ? t('schedules.conflict.by', { name: conflict.conflict.updatedBy })
          : t('schedules.conflict.title')
      : t('schedules.dialog.changedElsewhere'),
    conflict ? conflict.message : '',
  );
  return (
    <>
      {deleted && (
        <div className={styles.notice} data-tone="danger" role="alert">
          <AlertIcon size={16} />
          <span>{t('schedules.dialog.deletedElsewhere')}</span>
        </div>
      )}
      {/* The conflict says the same with who: one of them. */}
      {remote?.kind === 'updated' && !conflict && !merged && (
        <div className={styles.notice} data-tone="attention" role="status">
          <SyncIcon size={16} />
          <span className={styles.noticeText}>{t('schedules.dialog.changedElsewhere')}</span>
          <Button
            size="small"
            onClick={() => (dirty ? mergeLatest(remote.schedule) : model.loadLatest(remote.schedule))}
          >
            {t('schedules.dialog.loadLatest')}
          </Button>
        </div>
      )}
      {merged ??
        (conflict ? (
          <div className={styles.notice} data-tone="attention" role="alert" data-testid="conflict-notice">
            <AlertIcon size={16} />
            <span className={styles.noticeText}>{conflict.message}</span>
          </div>
        ) : problem ? (
          <div className={styles.notice} data-tone="danger" role="alert" data-testid="save-problem">
            <AlertIcon size={16} />
            <span className={styles.noticeText}>{problem.message}</span>
          </div>
        ) : null)}
    </>
  );
}
