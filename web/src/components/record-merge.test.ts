import { describe, expect, test } from 'vitest';
import { showValue } from './record-merge';

const words = { empty: '（空）', yes: 'オン', no: 'オフ' };

describe('how a value reads in the conflict panel', () => {
  test('nothing, an empty list and an empty string read as empty', () => {
    expect(showValue(null, words)).toBe('（空）');
    expect(showValue('', words)).toBe('（空）');
    expect(showValue([], words)).toBe('（空）');
  });

  test('a chosen option shows its name, not its id', () => {
    expect(showValue('3', words, [{ value: '3', label: '姫路' }])).toBe('姫路');
    expect(showValue('9', words, [{ value: '3', label: '姫路' }])).toBe('9');
  });

  test('a person or an account with its id; lists joined; switches as on/off', () => {
    expect(showValue({ id: 5, name: '佐藤 陽菜' }, words)).toBe('佐藤 陽菜（ID 5）');
    expect(showValue({ id: 1, account: 'm365-01@example.co.jp' }, words)).toBe('m365-01@example.co.jp（ID 1）');
    expect(
      showValue(
        [
          { id: 1, name: '山田' },
          { id: 2, name: '佐藤' },
        ],
        words,
      ),
    ).toBe('山田（ID 1）、佐藤（ID 2）');
    expect(showValue(['a@example.com', 'b@example.com'], words)).toBe('a@example.com、b@example.com');
    expect(showValue(true, words)).toBe('オン');
    expect(showValue(false, words)).toBe('オフ');
  });
});
