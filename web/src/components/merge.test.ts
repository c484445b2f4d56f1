import { describe, expect, test } from 'vitest';
import { threeWayMerge } from './merge';

const base = { maker: 'HP', model: 'X1', locationId: '1', version: 3, members: [1, 2] };

describe('three-way merge after a refused save', () => {
  test('fields only I changed keep mine; fields only they changed take theirs (the version too)', () => {
    const mine = { ...base, maker: 'Dell' };
    const theirs = { ...base, model: 'X2', version: 4 };
    expect(threeWayMerge(base, mine, theirs)).toEqual({
      merged: { ...base, maker: 'Dell', model: 'X2', version: 4 },
      clashes: [],
      taken: ['model', 'version'],
    });
  });

  test('a field both changed to different values is a clash, kept as mine for now', () => {
    const mine = { ...base, maker: 'Dell', locationId: '2' };
    const theirs = { ...base, maker: 'Lenovo', version: 4 };
    const m = threeWayMerge(base, mine, theirs);
    expect(m.clashes).toEqual(['maker']);
    expect(m.merged).toEqual({ ...base, maker: 'Dell', locationId: '2', version: 4 });
  });

  test('both made the same change: no clash; lists compare by content', () => {
    const mine = { ...base, maker: 'Dell', members: [1, 2, 3] };
    const theirs = { ...base, maker: 'Dell', members: [1, 2, 3], version: 4 };
    expect(threeWayMerge(base, mine, theirs)).toMatchObject({ clashes: [], taken: ['version'] });
  });

  test('a field-specific sameness (attendees by id, not by their answers)', () => {
    const b = { guests: [{ id: 1, response: 'PENDING' }], title: 'a' };
    const theirs = { guests: [{ id: 1, response: 'ACCEPTED' }], title: 'a' };
    const sameIds = (k: string, x: unknown, y: unknown) =>
      k === 'guests'
        ? (x as { id: number }[]).map((g) => g.id).join() === (y as { id: number }[]).map((g) => g.id).join()
        : x === y;
    expect(threeWayMerge(b, { ...b, title: 'b' }, theirs, sameIds as never)).toEqual({
      merged: { ...b, title: 'b' },
      clashes: [],
      taken: [],
    });
  });
});
