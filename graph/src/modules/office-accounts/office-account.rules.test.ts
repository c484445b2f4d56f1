import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { OfficeAccountStatus, OfficeRowColor, OfficeRowReason } from '../devices/device.enums.js';
import { officeRowColor } from './office-account.service.js';

describe('Office row colour (spec section 9, as documented in officeRowColor)', () => {
  const row = (
    usage_count: number,
    extra: Partial<{ status: OfficeAccountStatus; unusable_count: number; replace_count: number }> = {},
  ) => {
    const r = officeRowColor({
      status: OfficeAccountStatus.IN_USE,
      usage_count,
      unusable_count: 0,
      replace_count: 0,
      ...extra,
    });
    return [r.color, r.code, r.reason === null ? null : typeof r.reason];
  };
  it.each([
    [0, {}, null, null],
    [4, {}, null, null],
    [5, {}, OfficeRowColor.BLUE, OfficeRowReason.AT_LIMIT],
    [6, {}, OfficeRowColor.RED, OfficeRowReason.OVER_LIMIT],
    [2, { replace_count: 1 }, OfficeRowColor.BLUE, OfficeRowReason.REPLACE_COMPUTER],
    [2, { unusable_count: 1 }, OfficeRowColor.RED, OfficeRowReason.UNUSABLE_COMPUTER],
    [5, { unusable_count: 1 }, OfficeRowColor.RED, OfficeRowReason.UNUSABLE_COMPUTER],
    [1, { status: OfficeAccountStatus.SUSPENDED }, OfficeRowColor.RED, OfficeRowReason.SUSPENDED_IN_USE],
    [0, { status: OfficeAccountStatus.SUSPENDED }, null, null],
  ] as const)('usage %i %o → %s (%s)', (usage, extra, color, code) =>
    expect(row(usage, extra)).toEqual([color, code, code ? 'string' : null]),
  );
});
