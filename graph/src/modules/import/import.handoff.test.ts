import { describe, expect, it } from 'vitest';
import { UploadHandoff } from './import.handoff.js';

const file = (n: number, fill = 1) => Buffer.alloc(n, fill);
const enabled = (...args: ConstructorParameters<typeof UploadHandoff>) => {
  const h = new UploadHandoff(...args);
  h.enable();
  return h;
};

describe('UploadHandoff', () => {
  it('keeps nothing until this process runs the import worker (enable)', () => {
    const h = new UploadHandoff(100, 1000);
    h.put('a', file(10));
    expect(h.take('a')).toBeNull();
    h.enable();
    h.put('b', file(10));
    expect(h.take('b')).not.toBeNull();
  });

  it('hands a file over once', () => {
    const h = enabled(100, 1000);
    const f = file(10);
    h.put('a', f);
    expect(h.size).toEqual({ files: 1, bytes: 10 });
    expect(h.take('a')).toBe(f);
    expect(h.take('a')).toBeNull();
    expect(h.size).toEqual({ files: 0, bytes: 0 });
  });

  it('keeps at most maxBytes, dropping the oldest first, and never keeps a file larger than that', () => {
    const h = enabled(25, 1000);
    h.put('a', file(10));
    h.put('b', file(10));
    h.put('c', file(10));
    expect(h.size).toEqual({ files: 2, bytes: 20 });
    h.put('big', file(26));
    expect(h.take('big')).toBeNull();
    expect(h.take('a')).toBeNull();
    expect(h.take('b')).not.toBeNull();
    expect(h.size).toEqual({ files: 1, bytes: 10 });
  });

  it('forgets a file after its time', () => {
    let t = 0;
    const h = enabled(100, 1000, () => t);
    h.put('a', file(10));
    t = 500;
    h.put('b', file(10));
    t = 1000;
    expect(h.take('a')).toBeNull();
    expect(h.size).toEqual({ files: 1, bytes: 10 });
    t = 1500;
    expect(h.take('b')).toBeNull();
    expect(h.size).toEqual({ files: 0, bytes: 0 });
  });

  it('a second put of a job replaces its file without counting it twice', () => {
    const h = enabled(100, 1000);
    h.put('a', file(10));
    h.put('a', file(30, 2));
    expect(h.size).toEqual({ files: 1, bytes: 30 });
    expect(h.take('a')![0]).toBe(2);
  });
});
