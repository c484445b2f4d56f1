import { Button, IconButton, Label, TextInput } from '@primer/react';
import { AlertIcon, PeopleIcon, PlusIcon, XIcon } from '@primer/octicons-react';
import { useI18n } from '../../app/i18n';
import { PersonName } from '../../components/PersonName';
import { responseLabel } from './format';
import type { Guest } from './schedule-form';
import styles from './ScheduleDialog.module.css';

export const RESPONSE_VARIANT = { ACCEPTED: 'success', DECLINED: 'secondary', PENDING: 'attention' } as const;

/** The owner and the invited colleagues, with their answers; the owner picks or removes guests. */
export function AttendeesField({
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
          <PersonName id={owner.id} name={owner.name}>
            <span className={styles.personName}>{owner.name}</span>
          </PersonName>
          <Label size="small" variant="accent">
            {t('schedules.field.ownerTag')}
          </Label>
        </li>
        {guests.map((g) => (
          <li key={g.id} className={styles.person} data-testid="attendee">
            <PersonName id={g.id} name={g.name}>
              <span className={styles.personName}>{g.name}</span>
            </PersonName>
            {showResponses && g.response && (
              <Label size="small" variant={RESPONSE_VARIANT[g.response]}>
                {responseLabel(t, g.response)}
              </Label>
            )}
            {editable && (
              <IconButton
                icon={XIcon}
                size="small"
                variant="invisible"
                aria-label={t('schedules.field.removeAttendee', { name: g.name })}
                onClick={() => onRemove(g.id)}
                className={styles.personRemove}
              />
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

/** Guests from outside the company: one e-mail address a row. */
export function ExternalGuestsField({
  rows,
  editable,
  error,
  onChange,
}: {
  rows: string[];
  editable: boolean;
  error?: string;
  onChange(rows: string[]): void;
}) {
  const { t } = useI18n();
  const list = rows.filter((r) => editable || r.trim());
  return (
    <div className={styles.group} role="group" aria-labelledby="external-label" data-testid="field-external-guests">
      <div className={styles.groupHead}>
        <span id="external-label" className={styles.groupLabel}>
          {t('schedules.field.externalGuests')}
        </span>
        {editable && (
          <Button
            size="small"
            leadingVisual={PlusIcon}
            onClick={() => onChange([...rows, ''])}
            data-testid="add-external-guest"
          >
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
