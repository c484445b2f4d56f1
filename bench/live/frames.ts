/**
 * What a live bench's load generator (load-gen.ts) needs to know about the frames of one
 * subscription: where the change is, its key, who must receive it and whether each delivery is in its
 * viewer's own view. A module exporting `frames: FrameKind` per subscription: schedule-frames.ts
 * (the live bench), ../likes/like-frames.ts (the likes bench).
 */
export interface FrameKind {
  /** The subscription's root field in `data` (scheduleChanged, blogChanged). */
  field: string;
  /** The key of the change a frame carries, the same for each of its receivers (undefined: not a change the bench made). */
  keyOf(change: any): string | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- a parsed frame, read field by field
  /** What each viewer may see, sent by the bench before the changes. */
  expect(expects: unknown): void;
  /** Whether a viewer must receive the bench's changes (absent: every viewer). A delivery to one who must not is a leak. */
  receives?(viewerId: number): boolean;
  /** The viewer's class (one sample frame is kept per class) and what is wrong with its delivery, if anything. */
  check(viewerId: number, raw: string, change: any): { cls: string; problem?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any -- as keyOf
}
