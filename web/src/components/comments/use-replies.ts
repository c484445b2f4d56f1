import { useEffect, useRef, useState } from 'react';
import { readAgain, REPLIES_PER_PAGE, type Page } from './paging';

/**
 * A comment's replies (a post's or a profile's): the thread page's first ones, or, once opened in
 * full, those read a page at a time with `read`. A change elsewhere — the reply count moved, or the
 * live feed reported a change to the thread (`revision`: a reply edited, added or deleted) — reads
 * the opened replies again, as many as were shown.
 */
export function useReplies<T extends { id: number }>(
  first: T[],
  count: number,
  revision: number,
  read: (after: string | null, limit: number) => Promise<Page<T>>,
) {
  const [opened, setOpened] = useState<Page<T> | null>(null);
  const [loading, setLoading] = useState(false);
  const replies = opened?.items ?? first;
  const load = (next: () => Promise<Page<T>>) => {
    setLoading(true);
    next()
      .then(setOpened, () => undefined)
      .finally(() => setLoading(false));
  };
  const moreReplies = () =>
    load(async () => {
      if (!opened) return readAgain(replies.length + REPLIES_PER_PAGE, REPLIES_PER_PAGE, read);
      const page = await read(opened.nextCursor, REPLIES_PER_PAGE);
      return {
        items: [...opened.items, ...page.items.filter((r) => !opened.items.some((o) => o.id === r.id))],
        nextCursor: page.nextCursor,
      };
    });
  const seen = useRef(`${count}:${revision}`);
  useEffect(() => {
    const now = `${count}:${revision}`;
    if (seen.current === now) return;
    seen.current = now;
    if (opened)
      load(() => readAgain(opened.items.length + (opened.nextCursor ? 0 : REPLIES_PER_PAGE), REPLIES_PER_PAGE, read));
  }); // every render: it acts only when the count or the revision changed
  return { replies, remaining: Math.max(0, count - replies.length), loading, moreReplies };
}
