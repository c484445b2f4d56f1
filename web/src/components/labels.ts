import { useI18n, type MessageKey } from '../app/i18n';
import type { DetailFrameLabels } from './DetailFrame';
import type { ListFrameLabels } from './ListFrame';
import type { ReadError } from './gql-errors';

export function useListLabels(): ListFrameLabels {
  const { t } = useI18n();
  return {
    clear: t('grid.clear'),
    clearFilters: t('grid.clearFilters'),
    add: t('grid.add'),
    filter: t('grid.filter'),
    filterTitle: t('grid.filterTitle'),
    close: t('rec.close'),
    closeToast: t('rec.close'),
  };
}

export function useDetailLabels(): DetailFrameLabels {
  const { t } = useI18n();
  return {
    back: t('rec.back'),
    edit: t('rec.edit'),
    save: t('rec.save'),
    saving: t('rec.saving'),
    cancel: t('rec.cancel'),
    closeToast: t('rec.close'),
    empty: t('rec.unset'),
  };
}

const KNOWN = ['BAD_USER_INPUT', 'CONFLICT', 'FORBIDDEN', 'NOT_FOUND', 'UNAUTHENTICATED', 'NETWORK'] as const;

/** Server messages are Japanese: shown as is in Japanese; in English the code picks catalog text. */
export function useErrorText(): (e: ReadError) => string {
  const { t, locale } = useI18n();
  return (e) => {
    if (locale === 'ja' && e.message) return e.message;
    const code = (KNOWN as readonly string[]).includes(e.code) ? e.code : 'OTHER';
    if (code === 'CONFLICT' && e.updatedBySelf) return t('err.CONFLICT_SELF');
    return t(`err.${code}` as MessageKey, { name: e.updatedBy ?? '' });
  };
}

const STATUS_KEYS: Record<string, MessageKey> = {
  ACTIVE: 'emp.status.ACTIVE',
  RETIRED: 'emp.status.RETIRED',
  NORMAL: 'status.NORMAL',
  REPLACE: 'status.REPLACE',
  BROKEN: 'status.BROKEN',
  DISCARDED: 'status.DISCARDED',
  LOST: 'status.LOST',
  DISPOSED: 'status.DISPOSED',
  IN_USE: 'status.IN_USE',
  SUSPENDED: 'status.SUSPENDED',
};

/**
 * A status as the screen shows it. The server's labels are the spec's Japanese words: shown as is in
 * Japanese; in English the code picks catalogue text (an unknown code keeps the server's label).
 */
export function useStatusText(): (code: string, label: string) => string {
  const { t, locale } = useI18n();
  return (code, label) => (locale === 'ja' || !STATUS_KEYS[code] ? label : t(STATUS_KEYS[code]));
}

/**
 * An Office row's colour reason: the server's Japanese text in Japanese, catalogue text by code in
 * English (with the server's usage limit, `deviceOptions.officeUsageLimit`; the server's text until it is known).
 */
export function useRowReasonText(
  limit: number | null,
): (r: { rowColorReason: string | null; rowColorReasonCode: string | null }) => string | null {
  const { t, locale } = useI18n();
  return (r) =>
    locale === 'ja' || !r.rowColorReasonCode || limit === null
      ? r.rowColorReason
      : t(`office.reason.${r.rowColorReasonCode}` as MessageKey, { limit });
}

/** Field errors from the server, translated in English to a generic "check this field". */
export function useFieldErrors(): (e: ReadError) => Record<string, string> {
  const { t, locale } = useI18n();
  return (e) =>
    locale === 'ja' ? e.fieldErrors : Object.fromEntries(Object.keys(e.fieldErrors).map((k) => [k, t('err.field')]));
}
