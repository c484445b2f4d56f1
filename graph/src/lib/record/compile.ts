/**
 * Straight-line code for a field list, compiled once per record kind. Why generated: a record's view
 * and the import's rows are built per row on hot paths, and a loop over the field names does keyed
 * stores and loads under changing keys (megamorphic in V8), where code that names each field is one
 * inline cache per field and builds objects of one shape (bench/computers, bench/import). The field
 * names come from the record descriptions (identifiers checked here), never from input.
 */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function checked(keys: readonly string[]): readonly string[] {
  for (const k of keys)
    if (!IDENTIFIER.test(k)) throw new Error(`record field ${JSON.stringify(k)} is not an identifier`);
  return keys;
}

/** `(target, source) => target` with each key copied from source (null for undefined): `t.a = s.a ?? null; …`. */
export function compileCopy<K extends string>(
  keys: readonly K[],
): <T extends object>(target: T, source: object) => T & Record<K, unknown> {
  const body = checked(keys)
    .map((k) => `t.${k} = s.${k} ?? null;`)
    .join('\n');
  return new Function('t', 's', `${body}\nreturn t;`) as never;
}

/** `(source) => ({ a: source.a ?? null, … })`: the keys' values as one object literal (one shape). */
export function compilePick<K extends string>(
  keys: readonly K[],
): (source: Partial<Record<K, unknown>>) => Record<K, unknown> {
  return new Function(
    's',
    `return { ${checked(keys)
      .map((k) => `${k}: s.${k} ?? null`)
      .join(', ')} };`,
  ) as never;
}

/** `(values) => ({ a: values[0], … })`: an array in the keys' order as one object literal. */
export function compileFromArray<K extends string>(
  keys: readonly K[],
): (values: readonly unknown[]) => Record<K, unknown> {
  return new Function(
    'v',
    `return { ${checked(keys)
      .map((k, i) => `${k}: v[${i}]`)
      .join(', ')} };`,
  ) as never;
}

/** `(source) => [source.a, …]`: the keys' values as one array literal, in the keys' order. */
export function compileToArray<K extends string>(keys: readonly K[]): (source: Record<K, unknown>) => unknown[] {
  return new Function(
    's',
    `return [${checked(keys)
      .map((k) => `s.${k}`)
      .join(', ')}];`,
  ) as never;
}
