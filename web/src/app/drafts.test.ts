import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { KEEP_DAYS, readDraft, removeDraftsOf, writeDraft } from './drafts';

/** A browser's localStorage in memory, with a quota like a real one's. */
function memoryStorage(quota = 1_000): Storage {
  const m = new Map<string, string>();
  const size = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    get length() {
      return m.size;
    },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => m.get(k) ?? null,
    setItem(k, v) {
      const before = m.get(k);
      m.set(k, String(v));
      if (size() > quota) {
        if (before === undefined) m.delete(k);
        else m.set(k, before);
        throw new DOMException('full', 'QuotaExceededError');
      }
    },
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
  };
}

let storage: Storage;
beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal('window', { localStorage: storage });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('drafts kept in the browser', () => {
  test('each user reads only their own, per form', () => {
    expect(writeDraft(1, 'blog-post.new', { title: 'A' }, 1000)).toBe(true);
    writeDraft(2, 'blog-post.new', { title: 'B' });
    expect(readDraft(1, 'blog-post.new', 2000)).toEqual({ savedAt: 1000, data: { title: 'A' } });
    expect(readDraft<{ title: string }>(2, 'blog-post.new')?.data.title).toBe('B');
    expect(readDraft(1, 'blog-post.7')).toBeNull();
  });

  test('an entry past its keeping time, or not a draft, is dropped when read', () => {
    writeDraft(1, 'old', { x: 1 }, 0);
    expect(readDraft(1, 'old', KEEP_DAYS * 86_400_000 + 1)).toBeNull();
    expect(storage.length).toBe(0);
    storage.setItem('intranet.draft.1.bad', '{not json');
    expect(readDraft(1, 'bad')).toBeNull();
    expect(storage.getItem('intranet.draft.1.bad')).toBeNull();
  });

  test('a full storage refuses with false and keeps the previous entry', () => {
    writeDraft(1, 'f', 'small');
    expect(writeDraft(1, 'f', 'x'.repeat(2_000))).toBe(false);
    expect(readDraft(1, 'f')?.data).toBe('small');
  });

  test('signing out removes that user\u2019s drafts and nothing else', () => {
    writeDraft(1, 'a', 1);
    writeDraft(1, 'b', 2);
    writeDraft(12, 'a', 3);
    storage.setItem('intranet.login', '{}');
    removeDraftsOf(1);
    expect(readDraft(1, 'a')).toBeNull();
    expect(readDraft(1, 'b')).toBeNull();
    expect(readDraft(12, 'a')?.data).toBe(3);
    expect(storage.getItem('intranet.login')).toBe('{}');
  });

  test('a browser that blocks storage keeps nothing and says so', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    expect(writeDraft(1, 'a', 1)).toBe(false);
    expect(readDraft(1, 'a')).toBeNull();
  });
});
