import { z } from 'zod';
import { defineEvent } from './envelope.js';

const id = z.number().int();

/** Who a profile is (its owner): enough for live views and the owner's notifications. */
const profileRef = z.object({ id, employeeId: id });

export const profileSaved = defineEvent(
  'profile.saved',
  'profile',
  1,
  z.object({ profile: profileRef, created: z.boolean(), version: id }),
);
export const profileLikeChanged = defineEvent(
  'profile.like_changed',
  'profile',
  1,
  z.object({ profile: profileRef, employeeId: id, liked: z.boolean() }),
);
export const profileCommentAdded = defineEvent(
  'profile.comment.added',
  'profile',
  1,
  z.object({ profile: profileRef, commentId: id, parentId: id.nullable(), authorId: id }),
);
/** Its author changed a comment's text (never the text itself here). */
export const profileCommentEdited = defineEvent(
  'profile.comment.edited',
  'profile',
  1,
  z.object({ profile: profileRef, commentId: id, parentId: id.nullable(), authorId: id }),
);
export const profileCommentDeleted = defineEvent(
  'profile.comment.deleted',
  'profile',
  1,
  z.object({
    profile: profileRef,
    commentId: id,
    parentId: id.nullable(),
    authorId: id.nullable(),
    replyIds: z.array(id),
  }),
);

export const profileEventContracts = [
  profileSaved,
  profileLikeChanged,
  profileCommentAdded,
  profileCommentEdited,
  profileCommentDeleted,
] as const;
