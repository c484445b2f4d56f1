import { describe, expect, test } from 'vitest';
import type { UNSAFE_createBrowserHistory } from 'react-router-dom';
import { guardHistory, type LeaveGate } from './leave-guard';

type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;
type Update = Parameters<Parameters<BrowserHistory['listen']>[0]>[0];

/** A browser history in memory: entries, an index, and a pop heard after the browser moved (as popstate is). */
function memoryHistory(start: string) {
  const entries = [start];
  let index = 0;
  let listener: ((u: Update) => void) | null = null;
  const loc = () => {
    const url = new URL(entries[index], 'http://app.test');
    return { pathname: url.pathname, search: url.search, hash: '', state: null, key: String(index) };
  };
  const h = {
    action: 'POP',
    get location() {
      return loc();
    },
    createHref: (to: string) => to,
    createURL: (to: string) => new URL(to, 'http://app.test'),
    encodeLocation: (to: string) => new URL(to, 'http://app.test'),
    push(to: string) {
      entries.splice(index + 1, entries.length, to);
      index++;
      listener?.({ action: 'PUSH', location: loc(), delta: 1 } as Update);
    },
    replace(to: string) {
      entries[index] = to;
      listener?.({ action: 'REPLACE', location: loc(), delta: 0 } as Update);
    },
    go(n: number) {
      index += n;
      listener?.({ action: 'POP', location: loc(), delta: n } as Update);
    },
    listen(fn: (u: Update) => void) {
      listener = fn;
      return () => (listener = null);
    },
  };
  return { history: h as unknown as BrowserHistory, current: () => entries[index] };
}

/** A gate whose question the test answers. */
function gate(held: boolean) {
  const asked: ((ok: boolean) => void)[] = [];
  const g: LeaveGate & { asked: typeof asked; held: () => boolean } = {
    held: () => held,
    ask: () => new Promise((r) => asked.push(r)),
    asked,
  };
  return g;
}

function setup(held: boolean) {
  const mem = memoryHistory('/computers/1');
  const g = gate(held);
  const guarded = guardHistory(mem.history, g);
  const seen: string[] = [];
  guarded.listen((u) => seen.push(`${u.action} ${u.location.pathname}${u.location.search}`));
  return { mem, g, guarded, seen };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the unsaved-edits guard in the router history', () => {
  test('without unsaved edits every navigation goes through at once', () => {
    const { guarded, seen, g } = setup(false);
    guarded.push('/employees');
    guarded.go(-1);
    expect(seen).toEqual(['PUSH /employees', 'POP /computers/1']);
    expect(g.asked).toHaveLength(0);
  });

  test('a link away waits for the answer: "stay" keeps the page, "leave" goes', async () => {
    const { guarded, seen, g, mem } = setup(true);
    guarded.push('/employees');
    expect(seen).toEqual([]);
    g.asked[0](false);
    await tick();
    expect(mem.current()).toBe('/computers/1');
    guarded.push('/employees');
    g.asked[1](true);
    await tick();
    expect(seen).toEqual(['PUSH /employees']);
  });

  test('a change of query on the same page passes without a question', () => {
    const { guarded, seen, g } = setup(true);
    guarded.replace('/computers/1?tab=history');
    expect(seen).toEqual(['REPLACE /computers/1?tab=history']);
    expect(g.asked).toHaveLength(0);
  });

  test('the back button: the step is undone before the router sees it, and taken again on "leave"', async () => {
    const mem = memoryHistory('/computers');
    const g = gate(false);
    const guarded = guardHistory(mem.history, g);
    const seen: string[] = [];
    guarded.listen((u) => seen.push(`${u.action} ${u.location.pathname}`));
    guarded.push('/computers/1');
    g.held = () => true;
    mem.history.go(-1); // the browser's back button
    expect(mem.current()).toBe('/computers/1');
    expect(seen).toEqual(['PUSH /computers/1']);
    g.asked[0](false);
    await tick();
    expect(mem.current()).toBe('/computers/1');
    mem.history.go(-1);
    g.asked[1](true);
    await tick();
    expect(mem.current()).toBe('/computers');
    expect(seen).toEqual(['PUSH /computers/1', 'POP /computers']);
  });
});
