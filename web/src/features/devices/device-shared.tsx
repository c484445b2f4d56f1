import { useState } from 'react';
import { useSubscription } from '@apollo/client/react';
import { Label } from '@primer/react';
import { useT, type Translate } from '../../app/i18n';
import type { MergeFields } from '../../components/record-merge';
import { useStatusText } from '../../components/labels';
import { PickerField, SelectField } from '../../components/FormFields';
import type { RowTone } from '../../components/ListTable';
import { EmployeePickerDialog } from '../../components/PickerDialog';
import type { AssetKind } from '../../gql/graphql';
import { DeviceChangedSubscription } from './device.operations';
import styles from './devices.module.css';

/** Another user's save reaches an open list or detail without reload. */
export function useDeviceLive(kinds: AssetKind[], onChange: (id: number) => void) {
  useSubscription(DeviceChangedSubscription, {
    variables: { kinds },
    onData: ({ data }) => data.data && onChange(data.data.deviceChanged.id),
  });
}

interface HeldRow {
  isDiscarded: boolean;
  isBroken: boolean;
  currentUserRetired: boolean;
}

/** Row styles (spec): discarded or disposed, broken, current user retired. */
export function heldTone(r: HeldRow): RowTone {
  if (r.isDiscarded) return 'discarded';
  if (r.isBroken) return 'broken';
  if (r.currentUserRetired) return 'retired';
  return undefined;
}

export function HolderName({ holder }: { holder: { name: string; retired: boolean } | null | undefined }) {
  const t = useT();
  if (!holder) return <span className={styles.muted}>—</span>;
  return (
    <span className={styles.holder}>
      {holder.name}
      {holder.retired && (
        <Label variant="severe" size="small">
          {t('emp.status.RETIRED')}
        </Label>
      )}
    </span>
  );
}

export function StatusLabel({ status, label }: { status: string; label: string }) {
  const text = useStatusText();
  const variant =
    status === 'NORMAL' || status === 'IN_USE'
      ? 'success'
      : status === 'BROKEN' || status === 'LOST'
        ? 'danger'
        : status === 'REPLACE'
          ? 'attention'
          : 'secondary';
  return (
    <Label variant={variant} size="small">
      {text(status, label)}
    </Label>
  );
}

/** A row-colour legend: each swatch stays with its label when the line wraps. */
export function Legend({ items }: { items: { tone: string; label: string }[] }) {
  return (
    <div className={styles.legend} aria-hidden="true" data-testid="row-legend">
      {items.map((i) => (
        <span key={i.tone} className={styles.legendItem}>
          <span className={styles.swatch} data-tone={i.tone} />
          {i.label}
        </span>
      ))}
    </div>
  );
}

/** The legend of the held-device row styles. */
export function HeldLegend() {
  const t = useT();
  return (
    <Legend
      items={[
        { tone: 'discarded', label: t('device.legend.discarded') },
        { tone: 'broken', label: t('device.legend.broken') },
        { tone: 'retired', label: t('device.legend.retired') },
      ]}
    />
  );
}

/** An e-mail-like account that breaks before the "@" when it must, not at a hyphen. */
export function AccountText({ account }: { account: string }) {
  const at = account.indexOf('@');
  if (at <= 0) return <span className={styles.account}>{account}</span>;
  return (
    <span className={styles.account}>
      <span>{account.slice(0, at)}</span>
      <span>{account.slice(at)}</span>
    </span>
  );
}

export interface Holder {
  id: number;
  name: string;
}

export interface HeldValues {
  currentUser: Holder | null;
  previousUser: Holder | null;
  locationId: string;
  departmentId: string;
  status: string;
}

/** User / previous user pickers, location, department and status: the fields both device kinds share. */
export function HeldFields({
  values,
  set,
  readOnly,
  errors,
  locations,
  departments,
  statuses,
}: {
  values: HeldValues;
  set<K extends keyof HeldValues>(k: K, v: HeldValues[K]): void;
  readOnly: boolean;
  errors: Record<string, string>;
  locations: { value: string; label: string }[];
  departments: { value: string; label: string }[];
  statuses: { value: string; label: string }[];
}) {
  const t = useT();
  const [picker, setPicker] = useState<'currentUser' | 'previousUser' | null>(null);
  const show = (h: Holder | null) => (h ? `${h.name}（ID ${h.id}）` : null);
  return (
    <>
      <PickerField
        label={t('pc.currentUser')}
        display={show(values.currentUser)}
        onPick={() => setPicker('currentUser')}
        onClear={() => set('currentUser', null)}
        readOnly={readOnly}
        href={values.currentUser ? `/employees/${values.currentUser.id}` : undefined}
        error={errors.currentUserId}
        pickLabel={t('picker.choose')}
        clearLabel={t('picker.clear')}
        emptyText={t('picker.none')}
      />
      <PickerField
        label={t('pc.previousUser')}
        display={show(values.previousUser)}
        onPick={() => setPicker('previousUser')}
        onClear={() => set('previousUser', null)}
        readOnly={readOnly}
        href={values.previousUser ? `/employees/${values.previousUser.id}` : undefined}
        error={errors.previousUserId}
        pickLabel={t('picker.choose')}
        clearLabel={t('picker.clear')}
        emptyText={t('picker.none')}
      />
      <SelectField
        label={t('pc.status')}
        value={values.status}
        onChange={(x) => set('status', x)}
        readOnly={readOnly}
        required
        error={errors.status}
        options={statuses}
      />
      <SelectField
        label={t('pc.location')}
        value={values.locationId}
        onChange={(x) => set('locationId', x)}
        readOnly={readOnly}
        error={errors.locationId}
        options={locations}
        emptyLabel={t('rec.unset')}
      />
      <SelectField
        label={t('pc.department')}
        value={values.departmentId}
        onChange={(x) => set('departmentId', x)}
        readOnly={readOnly}
        error={errors.departmentId}
        options={departments}
        emptyLabel={t('rec.unset')}
        hrefOf={(id) => `/departments/${id}`}
      />
      {picker && (
        <EmployeePickerDialog
          title={t(picker === 'currentUser' ? 'pc.currentUser' : 'pc.previousUser') + ' — ' + t('picker.employeeTitle')}
          onClose={() => setPicker(null)}
          onPick={([e]) => {
            set(picker, { id: e.id, name: e.name });
            setPicker(null);
          }}
        />
      )}
    </>
  );
}

/** The held-device fields a conflict can name (record-merge). */
export function heldMergeFields(
  t: Translate,
  o: { locations: Options; departments: Options; statuses: Options },
): MergeFields<HeldValues> {
  return {
    currentUser: t('pc.currentUser'),
    previousUser: t('pc.previousUser'),
    status: { label: t('pc.status'), options: o.statuses },
    locationId: { label: t('pc.location'), options: o.locations },
    departmentId: { label: t('pc.department'), options: o.departments },
  };
}

type Options = readonly { value: string; label: string }[];

export const heldInput = (v: HeldValues) => ({
  currentUserId: v.currentUser?.id ?? null,
  previousUserId: v.previousUser?.id ?? null,
  locationId: v.locationId ? Number(v.locationId) : null,
  departmentId: v.departmentId ? Number(v.departmentId) : null,
});

export const heldFromView = (d: {
  currentUser?: Holder | null;
  previousUser?: Holder | null;
  location?: { refId: number } | null;
  department?: { refId: number } | null;
  status: string;
}): HeldValues => ({
  currentUser: d.currentUser ? { id: d.currentUser.id, name: d.currentUser.name } : null,
  previousUser: d.previousUser ? { id: d.previousUser.id, name: d.previousUser.name } : null,
  locationId: d.location ? String(d.location.refId) : '',
  departmentId: d.department ? String(d.department.refId) : '',
  status: d.status,
});
