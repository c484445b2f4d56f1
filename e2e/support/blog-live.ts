import type { Page } from 'playwright-core';

/** The titles of the cards in a feed, in order. */
export const feedTitles = (page: Page) =>
  page.locator('[data-testid="blog-grid"] [data-testid="blog-card-title"]').allInnerTexts();
