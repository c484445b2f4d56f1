import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../../app/auth/session';
import { useT, type MessageKey, type Translate } from '../../app/i18n';
import type { ScheduleCellFieldsFragment, ScheduleFieldsFragment } from '../../gql/graphql';
import { monthOf, today as todayOf } from './dates';
import { toast } from '../../components/Toast';

/** The callback's reason keys (google.routes.ts) → what the screen says. */
const CALLBACK_REASONS: Record<string, MessageKey> = {
  state: 'schedules.google.reason.invalid',
  expired: 'schedules.google.reason.invalid',
  user: 'schedules.google.reason.user',
  exchange: 'schedules.google.reason.grant',
  offline: 'schedules.google.reason.grant',
  scope: 'schedules.google.reason.grant',
  disabled: 'schedules.google.unavailable',
};
const KNOWN_CODES = ['BAD_USER_INPUT', 'FORBIDDEN', 'UNAUTHENTICATED'] as const;

/**
 * Why the Google consent failed, from the catalogue: the server sends a reason key and a code,
 * never text (a link could otherwise make the screen say anything).
 */
function googleFailure(reason: string | null, code: string | null, t: Translate): string {
  const key = reason && Object.hasOwn(CALLBACK_REASONS, reason) ? CALLBACK_REASONS[reason] : undefined;
  if (key) return t(key);
  return t(`err.${code && (KNOWN_CODES as readonly string[]).includes(code) ? code : 'OTHER'}` as MessageKey, {
    name: '',
  });
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export type DialogState =
  | { kind: 'create'; date: string; attendee?: { id: number; name: string } }
  | { kind: 'detail'; id: number; initial?: ScheduleFieldsFragment };

/** What both schedule screens share: the chosen day (?date=), the month shown, filters, the open dialog. */
export function useScheduleScreen() {
  const { user } = useSession();
  const t = useT();
  const [params, setParams] = useSearchParams();
  const today = useMemo(() => todayOf(), []);
  const raw = params.get('date');
  const selected = raw && DATE_RE.test(raw) ? raw : today;
  const [month, setMonth] = useState(monthOf(selected));
  const [departmentId, setDepartmentId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [dialog, setDialog] = useState<DialogState | null>(null);

  const select = useCallback(
    (date: string) => {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (date === today) next.delete('date');
          else next.set('date', date);
          return next;
        },
        { replace: true },
      );
      setMonth(monthOf(date));
    },
    [setParams, today],
  );

  // Back from Google's consent screen: /schedules?google=connected|denied|error
  const google = params.get('google');
  useEffect(() => {
    if (!google) return;
    if (google === 'connected') toast.success(t('schedules.google.connectedToast'));
    else if (google === 'denied') toast.info(t('schedules.google.deniedToast'));
    else toast.error(t('schedules.google.errorToast'), googleFailure(params.get('reason'), params.get('code'), t));
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('google');
        next.delete('code');
        next.delete('reason');
        return next;
      },
      { replace: true },
    );
  }, [google, params, setParams, t]);

  const openCreate = useCallback(
    (date: string, attendee?: { id: number; name: string }) =>
      setDialog({ kind: 'create', date, attendee: attendee && attendee.id !== user.id ? attendee : undefined }),
    [user.id],
  );
  // Others' private entries (busy time) do not open. A grid cell is not enough to build the form
  // from (no guests, no content): the dialog then waits for the whole entry; a full one (my day) opens at once.
  const openDetail = useCallback((entry: ScheduleCellFieldsFragment | ScheduleFieldsFragment) => {
    if (!entry.busyOnly) setDialog({ kind: 'detail', id: entry.id, initial: 'guests' in entry ? entry : undefined });
  }, []);
  const closeDialog = useCallback(() => setDialog(null), []);

  return {
    me: user,
    today,
    selected,
    select,
    month,
    setMonth,
    departmentId,
    setDepartmentId,
    name,
    setName,
    dialog,
    openCreate,
    openDetail,
    closeDialog,
  };
}
