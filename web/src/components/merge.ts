/**
 * Three-way merge of a form after a save was refused because someone else saved first. Base: the
 * values the user started editing from. Mine: the form now. Theirs: the saved record now. A field
 * only one side changed takes that side's value; a field both changed to different values is a
 * clash, kept as mine until the user picks.
 */

export interface Merge<V> {
  merged: V;
  /** Fields both sides changed, to different values. */
  clashes: (keyof V)[];
  /** Fields only the other side changed: their values were taken. */
  taken: (keyof V)[];
}

export const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function threeWayMerge<V extends object>(
  base: V,
  mine: V,
  theirs: V,
  same: (key: keyof V, a: unknown, b: unknown) => boolean = (_k, a, b) => sameJson(a, b),
): Merge<V> {
  const merged = { ...mine };
  const clashes: (keyof V)[] = [];
  const taken: (keyof V)[] = [];
  for (const key of Object.keys(theirs) as (keyof V)[]) {
    const changedByMe = !same(key, base[key], mine[key]);
    const changedByThem = !same(key, base[key], theirs[key]);
    if (!changedByThem) continue;
    if (!changedByMe) {
      merged[key] = theirs[key];
      taken.push(key);
    } else if (!same(key, mine[key], theirs[key])) clashes.push(key);
  }
  return { merged, clashes, taken };
}
