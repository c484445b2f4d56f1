import type { Revision } from './blog-post-revision.service.js';
import type { BlogPostRevision } from './blog-post-revision.types.js';

/** A revision as GraphQL answers it. */
export function revisionView(r: Revision): BlogPostRevision {
  return {
    version: r.version,
    savedAt: r.saved_at,
    savedBy: r.saved_by_id === null ? null : { id: r.saved_by_id, name: r.saved_by_name ?? '', departmentName: null },
    restoredFrom: r.restored_from,
    changes: r.changes,
    title: r.title,
    content: r.content,
    contentHtml: r.content_html,
    categoryId: r.category_id,
    categoryName: r.category_name,
    tagNames: r.tag_names,
    allowComments: r.allow_comments,
    allowLikes: r.allow_likes,
    publishStart: r.publish_start,
    publishEnd: r.publish_end,
    isPin: r.is_pin,
    pinStart: r.pin_start,
    pinEnd: r.pin_end,
    isDraft: r.is_draft,
    requireConfirmation: r.require_confirmation,
    attachmentName: r.attachment_name,
  };
}
