import { broken } from './errors.js';
import { attr, elements, own, xmlText } from './xml.js';
import type { Zip } from './zip-part.js';

// Package structure: which part is the first sheet, the shared strings, the styles, date1904.

/**
 * Relationships of a part: id → target part name (resolved against the source part's folder), only
 * those `wanted` (by id or type: a part of millions of relationships holds no more than those).
 */
async function relationships(
  zip: Zip,
  source: string,
  wanted: (id: string, type: string) => boolean,
): Promise<Map<string, { type: string; target: string }>> {
  const slash = source.lastIndexOf('/');
  const dir = source.slice(0, slash + 1);
  const out = new Map<string, { type: string; target: string }>();
  await zip.parse(
    `${dir}_rels/${source.slice(slash + 1)}.rels`,
    elements((name, s, a, b) => {
      if (name !== 'Relationship') return;
      const id = attr(s, a, b, 'Id');
      const target = attr(s, a, b, 'Target');
      const type = attr(s, a, b, 'Type') ?? '';
      if (
        id === null ||
        target === null ||
        attr(s, a, b, 'TargetMode') === 'External' ||
        out.has(id) ||
        !wanted(id, type)
      )
        return;
      out.set(own(id), { type: own(type), target: resolvePart(dir, xmlText(target)) });
    }),
  );
  return out;
}

function resolvePart(dir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

const byType = (rels: Map<string, { type: string; target: string }>, suffix: string) =>
  [...rels.values()].find((r) => r.type.endsWith(suffix))?.target ?? null;

export interface Workbook {
  sheet: string;
  sharedStrings: string | null;
  styles: string | null;
  date1904: boolean;
}

const OFFICE_DOCUMENT = '/officeDocument';
const SHARED_STRINGS = '/sharedStrings';
const STYLES = '/styles';

export async function workbook(zip: Zip): Promise<Workbook> {
  const root = await relationships(zip, '', (_id, type) => type.endsWith(OFFICE_DOCUMENT));
  const wbPart = byType(root, OFFICE_DOCUMENT) ?? 'xl/workbook.xml';
  // The first tab the user sees: a hidden sheet before it (lookup tables often are) is passed over.
  let firstSheetRel: string | null = null;
  let firstHiddenRel: string | null = null;
  let date1904 = false;
  const found = await zip.parse(
    wbPart,
    elements(
      (name, s, a, b) => {
        if (name === 'workbookPr') {
          const v = attr(s, a, b, 'date1904');
          date1904 = v === '1' || v === 'true';
        } else if (name === 'sheet' && firstSheetRel === null) {
          const state = attr(s, a, b, 'state');
          if (state === 'hidden' || state === 'veryHidden') firstHiddenRel ??= attr(s, a, b, 'id');
          else firstSheetRel = attr(s, a, b, 'id');
        }
      },
      (name) => name === 'sheets',
    ),
  );
  if (!found) throw broken('no workbook part');
  const seen = new Set<string>();
  const rels = await relationships(zip, wbPart, (id, type) => {
    if (id === firstSheetRel || id === firstHiddenRel) return true;
    // The first of each type only.
    const kind = type.endsWith(SHARED_STRINGS) ? SHARED_STRINGS : type.endsWith(STYLES) ? STYLES : null;
    if (kind === null || seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
  const fallback = zip
    .names()
    .filter((n) => /^xl\/worksheets\/sheet\d*\.xml$/i.test(n))
    .sort((x, y) => x.length - y.length || x.localeCompare(y))[0];
  const rel = firstSheetRel ?? firstHiddenRel;
  const sheet = (rel !== null ? rels.get(rel)?.target : undefined) ?? fallback;
  if (!sheet || !zip.entry(sheet)) throw broken('no worksheet');
  return {
    sheet,
    sharedStrings: byType(rels, SHARED_STRINGS) ?? (zip.entry('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : null),
    styles: byType(rels, STYLES) ?? (zip.entry('xl/styles.xml') ? 'xl/styles.xml' : null),
    date1904,
  };
}
