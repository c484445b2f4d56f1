import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { checkId } from '../../platform/validation.js';
import { profileImageUrl } from './profile-image.service.js';
import { faceColour, initialsOf } from '@intranet/schema/people/face';

/** How long a browser keeps a person's face before asking again (a new picture shows within it). */
const FACE_MAX_AGE = 300;

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Initials on the person's colour, as an SVG. */
export function initialsSvg(name: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><circle cx="48" cy="48" r="48" fill="${faceColour(name)}"/><text x="48" y="48" dy=".35em" text-anchor="middle" font-family="sans-serif" font-size="40" font-weight="600" fill="#fff">${escapeXml(initialsOf(name))}</text></svg>`;
}

/**
 * A person's face at one URL, `/api/avatars/{employee_id}`, wherever a person appears (header,
 * blog, comments, likers, the staff list): a redirect to their profile picture's thumbnail (whose
 * URL never changes, so it is cached for good), or their initials as an SVG. The answer itself is
 * cached briefly, so a new picture shows everywhere within minutes.
 */
export async function faceOf(ctx: AppContext, employeeId: number): Promise<{ redirect: string } | { svg: string }> {
  requireUser(ctx);
  checkId(employeeId, '社員');
  const [row]: { name: string; thumb_key: string | null }[] = await ctx.em.execute(
    `select e.name, (select i.thumb_key from profile p join profile_image i on i.profile_id = p.id and i.kind = 'avatar' where p.employee_id = e.id) as thumb_key
       from employee e where e.id = ?`,
    [employeeId],
  );
  if (!row) throw notFound('社員');
  return row.thumb_key ? { redirect: profileImageUrl(row.thumb_key) } : { svg: initialsSvg(row.name) };
}

export const FACE_HEADERS = {
  'Cache-Control': `private, max-age=${FACE_MAX_AGE}`,
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
};
