import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db.js';
import { normalizeText } from './blog-search.normalize.js';
import { snippetOf } from './blog-search.text.js';

/**
 * The query and the snippets normalize as the index does (blog_search_norm in PostgreSQL): where
 * they differed, a post was found but its snippet had no highlight, or a query found nothing.
 */
let db: TestDatabase;
const literal = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
const pgNorm = async (texts: string[]): Promise<string[]> =>
  (
    await db.orm.em
      .getConnection()
      .execute<{ n: string }[]>(
        `select blog_search_norm(t) as n from unnest(?::text[]) with ordinality u(t, o) order by o`,
        [literal(texts)],
      )
  ).map((r) => r.n);

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.close());

describe('search normalization', () => {
  it('agrees with the database on texts NFKC turns into spaces or composes, and on case', async () => {
    const texts = [
      '会議　゛確認', // ゛ (U+309B) is " ゙" under NFKC: beside a space, one space in the index
      '会議 ゛ 確認',
      'ｶﾞｲﾀﾞﾝｽ ﾞ 会議', // half-width voiced marks, one of them alone
      ' ﾞ会議',
      '¨ 会議 ´',
      '\u1100\u1161\u11a8 회의', // conjoining jamo compose to 각
      'İstanbul ΟΔΟΣ',
      '会議\ufeff資料', // U+FEFF is a space to JavaScript only
      '\t会議\u2028\u3000資料\n',
    ];
    expect(texts.map(normalizeText)).toEqual(await pgNorm(texts));
  });

  it('agrees with the database on every code point after a letter, a kana and a Hangul syllable', async () => {
    const texts: string[] = [];
    for (let cp = 0x20; cp < 0x30000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      texts.push(`a${c}b`, `か${c}`, `가${c} `);
    }
    const indexed = await pgNorm(texts);
    const differ = texts
      .filter((t, i) => normalizeText(t) !== indexed[i])
      .map((t) => [...t].map((c) => c.codePointAt(0)!.toString(16)).join(' '));
    // Known and left: letters added in Unicode 16 that the database's lower() does not know yet
    // (searched as written), and U+11A7, which PostgreSQL's NFKC drops after a Hangul syllable.
    const known = differ.filter(
      (d) => !/^(1c89|a7c[bc]|a7ce|a7d[24a-c]|a7f1|10d[56][0-9a-f]|16e[ab][0-9a-f]|11a7)$/.test(d.split(' ')[1]!),
    );
    expect(known).toEqual([]);
  });

  it('a snippet marks what the index matched, also beside characters NFKC changes', () => {
    expect(snippetOf('会議　゛確認', ['会議 ゙確']).highlights).toEqual([{ start: 0, length: 5 }]);
    expect(snippetOf('ｶﾞｲﾀﾞﾝｽ ﾞ の会議', ['ガイダンス', '会議']).highlights).toEqual([
      { start: 0, length: 7 },
      { start: 11, length: 2 },
    ]);
    expect(snippetOf('\u1100\u1161\u11a8 istanbul', ['각']).highlights).toEqual([{ start: 0, length: 3 }]);
    expect(snippetOf('İstanbul', ['istanbul']).highlights).toEqual([{ start: 0, length: 8 }]);
    expect(snippetOf('ΟΔΟΣ', [normalizeText('ΟΔΟΣ')]).highlights).toEqual([{ start: 0, length: 4 }]);
  });
});
