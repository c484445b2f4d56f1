import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The titles of the cards in a feed, in order. */
export const feedTitles = (page: Page) => page.locator('[data-testid="blog-grid"] [data-testid="blog-card-title"]').allInnerTexts();

/**
 * Feeds subscribe as they mount, beside their first query: a post written before a feed's
 * subscription is registered reaches it only on reload. Writes throwaway posts (`write` answers
 * a way to delete each) until every one of `pages` receives one live.
 */
export async function untilFeedsLive(pages: Page[], write: (title: string) => Promise<() => Promise<unknown>>) {
  for (let i = 0; ; i++) {
    const warm = `ライブ準備 ${Date.now()}`;
    const remove = await write(warm);
    const seen = await Promise.all(
      pages.map((p) =>
        expect
          .poll(() => feedTitles(p), { timeout: 3_000 })
          .toContain(warm)
          .then(
            () => true,
            () => false,
          ),
      ),
    );
    await remove();
    if (seen.every(Boolean)) return;
    if (i === 9) throw new Error('the feeds never received a post live');
  }
}
