import { describe, expect, test } from 'vitest';
import { tJa } from '../../test/translate';
import { deviceColumns, orDash, type DeviceRow } from './device-columns';

const row: DeviceRow = {
  id: 12,
  status: 'NORMAL',
  statusLabel: '正常',
  currentUser: null,
  department: { name: '開発' },
  location: null,
};

describe('the device lists’ shared columns', () => {
  test('one header and key each, in Japanese', () => {
    const col = deviceColumns<DeviceRow>(tJa, false);
    const cols = [col.id(), col.currentUser(), col.department(), col.location(), col.status()];
    expect(cols.map((c) => [c.key, c.header])).toEqual([
      ['id', 'ID'],
      ['user', '使用者'],
      ['dept', '部署'],
      ['loc', '拠点'],
      ['status', '状態'],
    ]);
  });

  test('the id column is narrower on a phone; a status column can be given a width', () => {
    expect(deviceColumns<DeviceRow>(tJa, true).id().width).toBe('2.5rem');
    expect(deviceColumns<DeviceRow>(tJa, false).id().width).toBe('3.5rem');
    expect(deviceColumns<DeviceRow>(tJa, false).status('7rem').width).toBe('7rem');
  });

  test('names show as text, nothing as a dash', () => {
    const col = deviceColumns<DeviceRow>(tJa, false);
    expect(col.department().render(row)).toBe('開発');
    expect(col.location().render(row)).toBe('—');
    expect(col.id().render(row)).toBe(12);
    expect(orDash('')).toBe('—');
    expect(orDash(undefined)).toBe('—');
    expect(orDash('HP')).toBe('HP');
  });
});
