import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { baseURL } from './browser';

const require = createRequire(import.meta.url);
/** axe-core's browser build, evaluated in the page (CDP's evaluate is not subject to the page's CSP). */
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** An iPhone's Safari: the narrow checks see what a phone sees (the app reads the user agent too). */
export const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

export async function newPhonePage(browser: Browser) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    userAgent: PHONE_UA,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
    baseURL: baseURL(),
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and its best practices, or only `rules`) on the page as it
 * is now and returns the serious and critical violations, each with the elements it names.
 */
export async function axeViolations(
  page: Page,
  opts: { include?: string; rules?: string[] } = {},
): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  await page.evaluate(() => document.fonts.ready);
  // A dialog still fading in is measured at part opacity (its colours blended with the backdrop): wait until every dialog is opaque.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].every((d) => {
      for (let el: Element | null = d; el; el = el.parentElement)
        if (getComputedStyle(el).opacity !== '1') return false;
      return true;
    }),
  );
  const violations = await page.evaluate(
    async ({ include, rules }) => {
      type AxeResult = {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; failureSummary?: string }[];
      };
      const axe = (
        window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeResult[] }> } }
      ).axe;
      const r = await axe.run(include ? { include: [include] } : document, {
        resultTypes: ['violations'],
        ...(rules ? { runOnly: rules } : {}),
      });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact ?? 'unknown',
        help: v.help,
        nodes: v.nodes.map((n) => ({
          target: n.target.map(String).join(' '),
          summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
        })),
      }));
    },
    { include: opts.include ?? null, rules: opts.rules ?? null },
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable list of findings for an assertion message. */
export function describeFindings(where: string, findings: AxeFinding[]): string {
  return findings
    .map(
      (f) =>
        `${where}: [${f.impact}] ${f.id} — ${f.help}\n${f.nodes
          .slice(0, 6)
          .map((n) => `    ${n.target}: ${n.summary}`)
          .join('\n')}`,
    )
    .join('\n');
}
