import type { Ref } from 'react';
import { Checkbox, Select, TextInput, Textarea } from '@primer/react';
import { AlertIcon } from '@primer/octicons-react';
import { useI18n } from '../../app/i18n';
import { CheckboxField, Field } from '../../components/Field';
import type { ScheduleType } from '../../gql/graphql';
import { ConflictHint } from './ConflictHint';
import { TIME_SLOTS } from './dates';
import { typeLabel } from './format';
import { hasGuests, slotOptions } from './schedule-form';
import { AttendeesField, ExternalGuestsField } from './ScheduleGuestFields';
import type { ScheduleFormModel } from './use-schedule-form';
import styles from './ScheduleDialog.module.css';

interface SectionProps {
  model: ScheduleFormModel;
  /** The entry was deleted elsewhere: no conflict hint for it. */
  deleted: boolean;
}

/** Title, when (dates, all day, times), and the attendees' other entries at that time. */
export function WhenSection({ model, deleted, titleRef }: SectionProps & { titleRef: Ref<HTMLInputElement> }) {
  const { t } = useI18n();
  const { form, errors, editable, set } = model;
  return (
    <>
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
        {(c) => (
          <TextInput
            {...c}
            block
            type="date"
            value={form.date}
            readOnly={!editable}
            onChange={(e) => model.setDate(e.target.value)}
            data-testid="field-date"
          />
        )}
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
            onChange={(e) => model.setEndDate(e.target.value)}
            data-testid="field-end-date"
          />
        )}
      </Field>

      <div className={styles.full}>
        <CheckboxField label={t('schedules.field.allDay')}>
          {(c) => (
            <Checkbox
              {...c}
              checked={form.isAllDay}
              disabled={!editable}
              onChange={(e) => set('isAllDay', e.target.checked)}
              data-testid="field-all-day"
            />
          )}
        </CheckboxField>
      </div>

      {!form.isAllDay && (
        <>
          <TimeField
            label={t('schedules.field.startTime')}
            value={form.startTime}
            editable={editable}
            error={errors.startTime}
            onChange={model.setStart}
            testId="field-start-time"
          />
          <TimeField
            label={t('schedules.field.endTime')}
            value={form.endTime}
            editable={editable}
            error={errors.endTime}
            onChange={(v) => set('endTime', v)}
            testId="field-end-time"
          />
        </>
      )}

      {editable && model.moved && !deleted && (
        <ConflictHint
          className={styles.full}
          employeeIds={model.attendeeIds}
          date={form.date}
          endDate={form.endDate || form.date}
          isAllDay={form.isAllDay}
          startTime={form.startTime}
          endTime={form.endTime}
          excludeId={model.current?.id}
        />
      )}
    </>
  );
}

function TimeField({
  label,
  value,
  editable,
  error,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  editable: boolean;
  error?: string;
  onChange(v: string): void;
  testId: string;
}) {
  return (
    <Field label={label} required={editable} error={error}>
      {(c) =>
        !editable ? (
          <TextInput {...c} block readOnly value={value} data-testid={testId} />
        ) : (
          <Select {...c} block value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
            {slotOptions(TIME_SLOTS, value).map((s) => (
              <Select.Option key={s} value={s}>
                {s}
              </Select.Option>
            ))}
          </Select>
        )
      }
    </Field>
  );
}

/** The kind of entry, and the meeting link of a remote one. */
export function KindSection({ model }: { model: ScheduleFormModel }) {
  const { t } = useI18n();
  const { form, errors, editable, set } = model;
  return (
    <>
      <Field label={t('schedules.field.type')} error={errors.type}>
        {(c) =>
          !editable ? (
            <TextInput {...c} block readOnly value={typeLabel(t, form.type)} data-testid="field-type" />
          ) : (
            <Select
              {...c}
              block
              value={form.type}
              onChange={(e) => set('type', e.target.value as ScheduleType)}
              data-testid="field-type"
            >
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
    </>
  );
}

/** Who attends: colleagues (picked in a dialog) and outside guests. */
export function PeopleSection({ model, onPick }: { model: ScheduleFormModel; onPick(): void }) {
  const { t } = useI18n();
  const { form, errors, editable, set, creating } = model;
  return (
    <>
      <div className={styles.full}>
        <AttendeesField
          guests={form.guests}
          owner={model.owner}
          editable={editable && !form.isPrivate}
          showResponses={!creating}
          error={errors.guestIds}
          caption={editable && form.isPrivate ? t('schedules.field.privateNoGuests') : undefined}
          onPick={onPick}
          onRemove={(id) =>
            set(
              'guests',
              form.guests.filter((g) => g.id !== id),
            )
          }
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
    </>
  );
}

/** Google Calendar sync, private, and the description. */
export function OptionsSection({ model, narrow }: { model: ScheduleFormModel; narrow: boolean }) {
  const { t } = useI18n();
  const { form, errors, editable, set } = model;
  const invited = hasGuests(form);
  return (
    <>
      <div className={`${styles.full} ${styles.checks}`}>
        <CheckboxField label={t('schedules.field.syncGoogle')} caption={t('schedules.field.syncGoogleCaption')}>
          {(c) => (
            <Checkbox
              {...c}
              checked={form.syncGoogle}
              disabled={!editable}
              onChange={(e) => set('syncGoogle', e.target.checked)}
              data-testid="field-sync-google"
            />
          )}
        </CheckboxField>
        <CheckboxField
          label={t('schedules.field.private')}
          caption={
            editable && invited ? t('schedules.field.privateNeedsNoGuests') : t('schedules.field.privateCaption')
          }
        >
          {(c) => (
            <Checkbox
              {...c}
              checked={form.isPrivate}
              disabled={!editable || (!form.isPrivate && invited)}
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
    </>
  );
}
