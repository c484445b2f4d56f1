/** The comments dialog's pages: how many to read, and a list read again from the top. */

/** Top-level comments per page (the server's default and its maximum). */
export const COMMENTS_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
/** Replies per page when a comment's replies are opened in full. */
export const REPLIES_PER_PAGE = 50;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Reads a list again from the top until it holds at least `shown` items (the pages already open
 * stay open after a live change) or the list ends: pages of up to MAX_PER_PAGE.
 */
export async function readAgain<T>(
  shown: number,
  perPage: number,
  read: (after: string | null, limit: number) => Promise<Page<T>>,
): Promise<Page<T>> {
  const items: T[] = [];
  let after: string | null = null;
  for (;;) {
    const limit = Math.min(MAX_PER_PAGE, Math.max(perPage, shown - items.length));
    const page = await read(after, limit);
    items.push(...page.items);
    after = page.nextCursor;
    if (!after || items.length >= shown) return { items, nextCursor: after };
  }
}
