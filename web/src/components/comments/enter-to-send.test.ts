import { describe, expect, it } from 'vitest';
import { enterAction } from './enter-to-send';

const key = (over: Partial<Parameters<typeof enterAction>[0]> = {}) => ({
  key: 'Enter',
  shiftKey: false,
  isComposing: false,
  keyCode: 13,
  ...over,
});

describe('enterAction: Enter sends, Shift+Enter breaks the line, the IME keeps its Enter', () => {
  it('a plain Enter sends', () => expect(enterAction(key(), false)).toBe('send'));
  it('Shift+Enter is a new line', () => expect(enterAction(key({ shiftKey: true }), false)).toBe('newline'));
  it('the Enter confirming a conversion (isComposing, Chrome/Firefox) does not send', () =>
    expect(enterAction(key({ isComposing: true }), false)).toBe('ignore'));
  it('an Enter the IME took (keyCode 229) does not send', () =>
    expect(enterAction(key({ keyCode: 229 }), false)).toBe('ignore'));
  it('an Enter right after compositionend (Safari) does not send', () =>
    expect(enterAction(key(), true)).toBe('ignore'));
  it('other keys do nothing', () => {
    expect(enterAction(key({ key: 'a' }), false)).toBe('ignore');
    expect(enterAction(key({ key: 'Escape' }), false)).toBe('ignore');
  });
});
