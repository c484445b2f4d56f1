/**
 * Every relative link in the repository's Markdown files (README.md, docs/, the module READMEs) resolves to a file or folder of the repository,
 * and a `#anchor` to a heading of the linked Markdown file (GitHub's heading ids), so the docs
 * cannot point at code that moved or at a section that was renamed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Every Markdown file of the repository (the READMEs of modules and workspaces too), not what is installed or built. */
const SKIP = new Set(['node_modules', 'dist', 'coverage']);
function markdownFiles(dir = ''): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.') || SKIP.has(e.name)) return [];
    const rel = dir ? `${dir}/${e.name}` : e.name;
    return e.isDirectory() ? markdownFiles(rel) : e.name.endsWith('.md') ? [rel] : [];
  });
}
const docs = markdownFiles();

/** Inline links and images `[text](target)` outside code; fenced blocks and code spans hold examples. */
export function linksOf(markdown: string): string[] {
  const prose = markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, (span) => (span.includes('](') ? span : ''));
  const out: string[] = [];
  for (const m of prose.matchAll(/!?\[(?:[^\]]|\][^(])*?\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]!);
  return out;
}

/** The id GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n ? `${base}-${n}` : base);
  }
  return ids;
}

describe('documentation links', () => {
  test('the link extraction skips code and keeps images, titles and anchors', () => {
    const md =
      'See [a](docs/a.md#x "t") and ![img](images/p.png).\n```\n[not](nowhere.md)\n```\n`[code](x.md)` [ext](https://example.com)';
    expect(linksOf(md)).toEqual(['docs/a.md#x', 'images/p.png', 'x.md', 'https://example.com']);
    expect(slug('Excel 取り込み（パソコン）')).toBe('excel-取り込みパソコン');
    expect(slug('One event: the outbox to a consumer and a browser')).toBe(
      'one-event-the-outbox-to-a-consumer-and-a-browser',
    );
    expect(slug('Events, Kafka and the worker pool')).toBe('events-kafka-and-the-worker-pool');
  });

  for (const doc of docs) {
    test(`${doc}: every relative link resolves`, () => {
      const markdown = fs.readFileSync(path.join(root, doc), 'utf8');
      const broken: string[] = [];
      for (const link of linksOf(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [target = '', anchor] = link.split('#');
        const file = target
          ? path.resolve(path.dirname(path.join(root, doc)), decodeURI(target))
          : path.join(root, doc);
        if (!file.startsWith(root + path.sep) && file !== root) broken.push(`${link} (outside the repository)`);
        else if (!fs.existsSync(file)) broken.push(`${link} (no such file)`);
        else if (
          anchor &&
          file.endsWith('.md') &&
          !anchorsOf(fs.readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))
        )
          broken.push(`${link} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }
});
