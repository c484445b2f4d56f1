import { describe, expect, it } from 'vitest';
import { insertAtCaret, previewKind } from './compose';

describe('insertAtCaret', () => {
  it('puts the emoji at the caret and moves the caret after it', () =>
    expect(insertAtCaret('ありがとう', 3, 3, '😊')).toEqual({ text: 'ありが😊とう', caret: 5 }));
  it('replaces a selection', () => expect(insertAtCaret('abcdef', 1, 4, '👍')).toEqual({ text: 'a👍ef', caret: 3 }));
  it('clamps a caret beyond the text to its end', () =>
    expect(insertAtCaret('ab', 9, 9, '!')).toEqual({ text: 'ab!', caret: 3 }));
});

describe('previewKind', () => {
  it('pictures inline, PDF in a frame, text as a download', () => {
    expect(
      ['image/png', 'image/jpeg', 'image/gif', 'application/pdf', 'text/plain', 'image/svg+xml'].map(previewKind),
    ).toEqual(['image', 'image', 'image', 'pdf', 'download', 'download']);
  });
});

describe('EMOJIS', () => {
  it('about 85 to 90 distinct emojis (spec §9)', async () => {
    const { EMOJIS } = await import('./emojis');
    expect(EMOJIS.length).toBeGreaterThanOrEqual(85);
    expect(EMOJIS.length).toBeLessThanOrEqual(90);
    expect(new Set(EMOJIS).size).toBe(EMOJIS.length);
    expect(EMOJIS.every((e) => e.trim() === e && e.length > 0)).toBe(true);
  });
});
