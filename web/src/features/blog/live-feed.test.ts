import { describe, expect, test } from 'vitest';
import type { BlogCardPost } from './BlogCard';
import { applyToFeed, applyToPinned, applyToShown, type BlogChange, type LivePost } from './live-feed';

const ME = 1;
const post = (id: number, over: Partial<LivePost> = {}): LivePost => ({
  id,
  title: `記事${id}`,
  contentHtml: '<p>本文</p>',
  publishStart: '2026-11-20',
  updatedAt: '2026-11-20T00:00:00Z',
  state: 'PUBLISHED',
  stateLabel: '公開中',
  pinned: false,
  allowLikes: true,
  allowComments: true,
  commentCount: 0,
  likeCount: 0,
  likedByMe: false,
  likers: [],
  isNew: true,
  saved: false,
  requireConfirmation: false,
  confirmedCount: 0,
  confirmedByMe: false,
  confirmationOpen: false,
  author: { id: 2, name: '佐藤 花子' },
  category: { id: 10, name: '社内報', color: '#0969da' },
  attachment: null,
  tags: [],
  ...over,
});
/** A post change; `inFeed` as the server judges it for the feed's filter (on the feed unless said). */
const change = (kind: BlogChange['kind'], postId: number, p: LivePost | null, inFeed = p !== null): BlogChange => ({
  kind,
  postId,
  post: p,
  categoryId: null,
  category: null,
  inFeed,
});
const ids = (l: readonly BlogCardPost[]) => l.map((p) => p.id);
const all = { more: false };

describe('applyToFeed: a live change in the loaded cards', () => {
  const feed = [
    post(5, { pinned: true }),
    post(4, { publishStart: '2026-11-22' }),
    post(3, { publishStart: '2026-11-21' }),
    post(2),
  ];

  test('a new post goes to its place: after the pinned ones, newest publish start first', () => {
    expect(ids(applyToFeed(feed, change('CREATED', 9, post(9, { publishStart: '2026-11-21' })), all))).toEqual([
      5, 4, 9, 3, 2,
    ]);
    // Pinned ones among themselves: newest publish start first.
    expect(
      ids(applyToFeed(feed, change('PIN_STARTED', 8, post(8, { pinned: true, publishStart: '2026-11-01' })), all)),
    ).toEqual([5, 8, 4, 3, 2]);
  });

  test('an edit replaces the card, and moves it when its order changed; a pin that ends moves it out of the top', () => {
    const edited = applyToFeed(feed, change('UPDATED', 3, post(3, { title: '改題', publishStart: '2026-11-21' })), all);
    expect(edited.find((p) => p.id === 3)?.title).toBe('改題');
    expect(ids(edited)).toEqual([5, 4, 3, 2]);
    expect(ids(applyToFeed(feed, change('PIN_ENDED', 5, post(5, { pinned: false })), all))).toEqual([4, 3, 5, 2]);
  });

  test('a deletion, or a post the viewer may no longer see (null), takes the card away; an unknown id changes nothing', () => {
    expect(ids(applyToFeed(feed, change('DELETED', 4, null), all))).toEqual([5, 3, 2]);
    expect(ids(applyToFeed(feed, change('EXPIRED', 3, null), all))).toEqual([5, 4, 2]);
    expect(applyToFeed(feed, change('DELETED', 77, null), all)).toBe(feed);
  });

  test("the server's word on the filter holds: a post not on the feed stays out, a card edited out of it leaves, one edited into it comes in", () => {
    expect(applyToFeed(feed, change('CREATED', 9, post(9, { author: { id: ME, name: '私' } }), false), all)).toBe(feed);
    expect(ids(applyToFeed(feed, change('UPDATED', 4, post(4, { title: '別件' }), false), all))).toEqual([5, 3, 2]);
    expect(ids(applyToFeed(feed, change('UPDATED', 9, post(9, { saved: true })), all))).toContain(9);
    // Sent without a filter (inFeed null): not taken as on the feed.
    expect(applyToFeed(feed, { ...change('CREATED', 9, post(9)), inFeed: null }, all)).toBe(feed);
  });

  test('a new post that would come after the last loaded card waits for its page', () => {
    expect(
      applyToFeed(feed, change('CREATED', 1, post(1, { publishStart: '2026-01-01' })), { ...all, more: true }),
    ).toBe(feed);
    expect(ids(applyToFeed(feed, change('CREATED', 1, post(1, { publishStart: '2026-01-01' })), all))).toEqual([
      5, 4, 3, 2, 1,
    ]);
  });

  test("a category's new colour reaches its cards", () => {
    const c = {
      kind: 'CATEGORY_UPDATED' as const,
      postId: null,
      post: null,
      categoryId: 10,
      category: { id: 10, name: '社内報（新）', color: '#cf222e' },
      inFeed: null,
    };
    expect(applyToFeed(feed, c, all).every((p) => p.category?.color === '#cf222e')).toBe(true);
  });
});

describe('applyToPinned and applyToShown', () => {
  test('速報 holds a post exactly while it is pinned', () => {
    const list = [post(5, { pinned: true })];
    expect(
      ids(applyToPinned(list, change('PIN_STARTED', 6, post(6, { pinned: true, publishStart: '2026-11-25' })))),
    ).toEqual([6, 5]);
    expect(ids(applyToPinned(list, change('PIN_ENDED', 5, post(5))))).toEqual([]);
    expect(ids(applyToPinned(list, change('DELETED', 5, null)))).toEqual([]);
  });

  test('an open dialog shows the new version, or closes when the post went away', () => {
    expect(applyToShown(post(3), change('UPDATED', 3, post(3, { title: '改題' })))?.title).toBe('改題');
    expect(applyToShown(post(3), change('DELETED', 3, null))).toBeNull();
    expect(applyToShown(post(3), change('DELETED', 4, null))?.id).toBe(3);
  });
});
