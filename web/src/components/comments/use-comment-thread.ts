import { useCallback, useEffect, useRef, useState } from 'react';
import { COMMENTS_PER_PAGE, readAgain, type Page } from './paging';

/** A page of a thread's top-level comments as the server answers it, with the thread's total (replies included). */
export type ReadComments<C> = (after: string | null, limit: number) => Promise<Page<C> & { totalCount: number }>;

export interface CommentThread<CommentView> {
  /** The pages read so far (null until the first answer). */
  thread: Page<CommentView> | null;
  failed: boolean;
  loadingMore: boolean;
  /** The next page, after the ones shown. */
  more(): void;
  /** The pages shown, read again from the top (after a live change or the viewer's own). */
  reload(): void;
}

/**
 * A thread's comments (a post's, a profile's), a page at a time (there may be thousands): the first
 * page on opening, もっと見る for the next, and a re-read that keeps every page already open. Only
 * the latest read lands, so a slow answer never replaces a newer one. `onCount` gets the thread's
 * total with each answer. `readPage` must be stable (a new one reads again from the top).
 */
export function useCommentThread<CommentView extends { id: number }>(
  readPage: ReadComments<CommentView>,
  onCount: (count: number) => void,
): CommentThread<CommentView> {
  const [thread, setThread] = useState<Page<CommentView> | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const latest = useRef(0);
  const shown = useRef<Page<CommentView> | null>(null);
  shown.current = thread;
  const countRef = useRef(onCount);
  countRef.current = onCount;

  const read = useCallback(
    async (after: string | null, limit: number): Promise<Page<CommentView>> => {
      const page = await readPage(after, limit);
      countRef.current(page.totalCount);
      return { items: page.items, nextCursor: page.nextCursor };
    },
    [readPage],
  );

  const reload = useCallback(() => {
    const seq = ++latest.current;
    setFailed(false);
    // As many as are shown; when the end is in view, a page more (new comments come last).
    const now = shown.current;
    const target = !now ? COMMENTS_PER_PAGE : now.items.length + (now.nextCursor ? 0 : COMMENTS_PER_PAGE);
    readAgain(Math.max(COMMENTS_PER_PAGE, target), COMMENTS_PER_PAGE, read).then(
      (page) => seq === latest.current && setThread(page),
      () => seq === latest.current && setFailed(true),
    );
  }, [read]);

  const more = useCallback(() => {
    const from = shown.current;
    if (!from?.nextCursor) return;
    const seq = ++latest.current;
    setLoadingMore(true);
    read(from.nextCursor, COMMENTS_PER_PAGE)
      .then(
        (page) => {
          if (seq !== latest.current) return;
          // A comment may sit on both pages when the list changed in between: keep its first place.
          const have = new Set(from.items.map((c) => c.id));
          setThread({
            items: [...from.items, ...page.items.filter((c) => !have.has(c.id))],
            nextCursor: page.nextCursor,
          });
        },
        () => seq === latest.current && setFailed(true),
      )
      .finally(() => setLoadingMore(false));
  }, [read]);

  useEffect(() => reload(), [reload]);

  return { thread, failed, loadingMore, more, reload };
}
