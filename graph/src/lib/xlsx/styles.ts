import { XlsxTooLarge } from './errors.js';
import { attr, elements, xmlText } from './xml.js';
import type { Zip } from './zip-part.js';

/** Built-in number formats that show dates or times (the East Asian ids as Japanese Excel reads them). */
const BUILTIN_DATE = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/** Whether a format code shows a date or time: y m d h s outside literals, colours/locales and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|[_*]./g, '');
  return /[ymdhs]/i.test(bare); // "General" has none of them
}

/** More cell formats than Excel allows (64,000) are refused; as many custom number formats. */
const MAX_FORMATS = 65_536;

/** For each cell style index (`s`): whether its number format is a date or time. */
export async function dateStyles(zip: Zip, part: string | null): Promise<boolean[]> {
  if (part === null) return [];
  // Custom format id → whether it shows a date (the code itself is not kept).
  const custom = new Map<number, boolean>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  const tooMany = () => new XlsxTooLarge(`not a readable .xlsx: more than ${MAX_FORMATS} formats`);
  await zip.parse(
    part,
    elements(
      (name, s, a, b) => {
        if (name === 'numFmt') {
          const id = Number(attr(s, a, b, 'numFmtId'));
          const code = attr(s, a, b, 'formatCode');
          if (Number.isInteger(id) && code !== null) custom.set(id, isDateFormat(xmlText(code)));
          if (custom.size > MAX_FORMATS) throw tooMany();
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) {
          xfFormats.push(Number(attr(s, a, b, 'numFmtId') ?? 0));
          if (xfFormats.length > MAX_FORMATS) throw tooMany();
        }
      },
      (name) => name === 'cellXfs',
    ),
  );
  return xfFormats.map((id) => custom.get(id) ?? BUILTIN_DATE.has(id));
}
