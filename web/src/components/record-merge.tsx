import { useState } from 'react';
import { useT } from '../app/i18n';
import { ConflictMerge } from './ConflictMerge';
import { threeWayMerge } from './merge';

/**
 * The fields a conflict can name, with their labels; a field chosen from a list also gives its
 * options, so the choice shows its name rather than an id, and a value of its own shape says how it
 * reads (`show`). Fields left out still merge, silently.
 */
export type MergeFields<V> = {
  [K in keyof V]?:
    string | { label: string; options?: readonly { value: string; label: string }[]; show?: (value: V[K]) => string };
};

type Side = 'mine' | 'theirs';

/** How a form value reads in the conflict panel. */
export function showValue(
  value: unknown,
  words: { empty: string; yes: string; no: string },
  options?: readonly { value: string; label: string }[],
): string {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0))
    return words.empty;
  if (options) return options.find((o) => o.value === value)?.label ?? String(value);
  if (Array.isArray(value)) return value.map((v) => showValue(v, words)).join('、');
  if (typeof value === 'object') {
    const o = value as { id?: number; name?: string; account?: string };
    const text = o.name ?? o.account;
    if (text) return o.id ? `${text}（ID ${o.id}）` : text;
    return JSON.stringify(value);
  }
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  return String(value);
}

/**
 * Keeps the user's edits when a save meets a newer saved version: merges three ways into the form,
 * makes the saved record the new starting point, and offers a choice for every field both changed.
 */
export function useConflictMerge<V extends object>(
  editor: {
    loaded: V;
    values: V;
    rebase(saved: V, merged: V): void;
    set<K extends keyof V>(key: K, value: V[K]): void;
  },
  fields: MergeFields<V>,
  /** When two values count as the same (default: equal JSON). */
  same?: (key: keyof V, a: unknown, b: unknown) => boolean,
) {
  const t = useT();
  const [state, setState] = useState<{
    mine: V;
    theirs: V;
    clashes: (keyof V)[];
    taken: (keyof V)[];
    choice: Partial<Record<keyof V, Side>>;
  } | null>(null);
  const labelOf = (key: keyof V) => {
    const f = fields[key];
    return typeof f === 'string' ? f : f?.label;
  };
  const show = (key: keyof V, value: V[keyof V]) => {
    const f = fields[key];
    if (typeof f === 'object' && f.show) return f.show(value) || t('merge.empty');
    return showValue(
      value,
      { empty: t('merge.empty'), yes: t('merge.yes'), no: t('merge.no') },
      typeof f === 'object' ? f.options : undefined,
    );
  };

  const merge = (theirs: V) => {
    const m = threeWayMerge(editor.loaded, editor.values, theirs, same);
    editor.rebase(theirs, m.merged);
    setState({ mine: editor.values, theirs, clashes: m.clashes, taken: m.taken, choice: {} });
  };

  const choose = (key: keyof V, side: Side) => {
    if (!state) return;
    editor.set(key, side === 'mine' ? state.mine[key] : state.theirs[key]);
    setState({ ...state, choice: { ...state.choice, [key]: side } });
  };

  const panel = (title: string, message: string) =>
    state && (
      <ConflictMerge
        title={title}
        message={message}
        taken={state.taken.map(labelOf).filter((l): l is string => !!l)}
        clashes={state.clashes.map((key) => ({
          key: String(key),
          label: labelOf(key) ?? String(key),
          mine: show(key, state.mine[key]),
          theirs: show(key, state.theirs[key]),
          choice: state.choice[key] ?? 'mine',
        }))}
        onChoose={(key, side) => choose(key as keyof V, side)}
      />
    );

  return { merge, panel, clear: () => setState(null) };
}
