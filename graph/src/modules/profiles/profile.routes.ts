import { pipeline } from 'node:stream/promises';
import type { Request, Router } from 'express';
import type { ProfileImageKind } from './profile-image.service.js';
import { FACE_HEADERS, faceOf } from './avatar.js';
import { badInput, forbidden } from '../../platform/errors.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { cursorPage, deleteRoute, listRoute } from '../../platform/rest-routes.js';
import { bodyId, pathId, queryId } from '../../platform/validation.js';
import type { AppContext } from '../../platform/context.js';
import { profileNotFound } from './profile.fields.js';
import type { Profile, ProfileComment } from './profile.types.js';

/**
 * The spec's `/api` record of a profile: its list fields as JSON text (as the spec stores them),
 * likes as comma-separated ids; beside them the master data it is read from and what a tool needs
 * (visibilities, counts, version).
 */
export function toApiProfile(p: Profile, likerIds?: number[]): Record<string, unknown> {
  return {
    id: p.id,
    employee_id: p.employeeId,
    name: p.name,
    avatar: p.avatar?.url ?? null,
    avatar_thumbnail: p.avatar?.thumbnailUrl ?? null,
    department: p.departmentName,
    department_id: p.departmentId,
    location: p.locationName,
    status: p.status,
    title: p.title,
    address: p.address,
    address_visibility: p.addressVisibility,
    email: p.email,
    phone: p.phone,
    phone_visibility: p.phoneVisibility,
    skills: JSON.stringify(p.skills),
    languages: JSON.stringify(p.languages),
    work_experience: JSON.stringify(p.workExperience),
    education: JSON.stringify(p.education),
    about_me: p.aboutMeHtml,
    hobbies: p.hobbies,
    talents: p.talents,
    hobby_images: JSON.stringify(p.hobbyImages.map((i) => i.url)),
    talent_images: JSON.stringify(p.talentImages.map((i) => i.url)),
    header_background: JSON.stringify(p.headerImages.map((i) => i.url)),
    ...(likerIds ? { likes_employee_ids: likerIds.join(',') } : {}),
    like_count: p.likeCount,
    liked_by_me: p.likedByMe,
    comment_count: p.commentCount,
    can_edit: p.canEdit,
    version: p.version,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** The spec sends employee_id: only one's own profile is written (403 for anyone else's). */
function ownId(v: unknown, _body: Record<string, unknown>, ctx: AppContext): null {
  const employeeId = bodyId(v, 'employee_id');
  if (employeeId !== null && employeeId !== ctx.user?.id) throw forbidden('プロフィールを編集できるのは本人だけです。');
  return null;
}

/**
 * A picture field of the spec's body: our URL (from POST /api/profile_images) as it is, or — as the
 * spec's client sends them — a data URL, uploaded here first (an upload whose save then fails is
 * swept as unused). The lists come as lists or as their JSON text.
 */
function pictures(kind: ProfileImageKind, field: string) {
  const one = async (ctx: AppContext, v: unknown) =>
    typeof v === 'string' && /^data:/i.test(v)
      ? (await ctx.services.profiles.images.upload(ctx, { kind, name: `${kind}.png`, dataUrl: v })).url
      : v;
  return async (v: unknown, _body: Record<string, unknown>, ctx: AppContext) => {
    if (v === undefined || v === null || v === '') return v === '' ? null : v;
    if (kind === 'avatar') return one(ctx, v);
    let list: unknown = v;
    if (typeof v === 'string') {
      try {
        list = JSON.parse(v);
      } catch {
        throw badInput(`${field} は画像の URL のリスト（JSON）で指定してください。`, [
          { field, message: 'JSON のリスト' },
        ]);
      }
    }
    if (!Array.isArray(list))
      throw badInput(`${field} は画像の URL のリストで指定してください。`, [{ field, message: 'リスト' }]);
    const out: unknown[] = [];
    for (const item of list) out.push(await one(ctx, item));
    return out;
  };
}

/** A profile through `/api`: the spec's snake_case fields (camelCase too), lists as lists or JSON text. */
export const profileResource: RestResource<Profile> = {
  toApi: async (p, ctx) => toApiProfile(p, await ctx.services.profiles.profiles.likerIds(ctx.em, p.id)),
  body: bodyTable({
    employeeId: { from: ['employee_id', 'employeeId'], read: ownId },
    title: 'title',
    address: 'address',
    addressVisibility: { from: ['address_visibility', 'addressVisibility'] },
    phone: 'phone',
    phoneVisibility: { from: ['phone_visibility', 'phoneVisibility'] },
    skills: 'skills',
    languages: 'languages',
    workExperience: { from: ['work_experience', 'workExperience'] },
    education: 'education',
    aboutMe: { from: ['about_me', 'aboutMe'] },
    hobbies: 'hobbies',
    talents: 'talents',
    version: 'version',
    avatar: { from: 'avatar', read: pictures('avatar', 'avatar') },
    hobbyImages: { from: ['hobby_images', 'hobbyImages'], read: pictures('hobby', 'hobby_images') },
    talentImages: { from: ['talent_images', 'talentImages'], read: pictures('talent', 'talent_images') },
    headerImages: { from: ['header_background', 'headerImages'], read: pictures('header', 'header_background') },
  }),
};

/** A write needs a body (an empty PUT would clear the profile without saying so). */
function withBody(req: Request): void {
  if (req.body === undefined || req.body === null)
    throw badInput('プロフィールの項目を JSON で送信してください。', [{ field: '_', message: '本文がありません' }]);
}

/** The spec's `/api` record of a profile comment (its attachment fields are always null). */
function toApiComment(c: ProfileComment): Record<string, unknown> {
  return {
    comment_id: c.id,
    profile_id: c.profileId,
    employee_id: c.author.id,
    username: c.author.name,
    content: c.content,
    parent_comment_id: c.parentId,
    attachment: null,
    attachment_type: null,
    attachment_filename: null,
    created_at: c.createdAt.toISOString(),
    edited_at: c.editedAt?.toISOString() ?? null,
    can_edit: c.canEdit,
    can_delete: c.canDelete,
    replies: c.replies.map(toApiComment),
    reply_count: c.replyCount,
  };
}

/**
 * GET /avatars/{employee_id} (a person's face), POST /profile_images, GET /profile_images/{file}, GET /profiles, GET /profiles/employee/{employee_id}, GET/PUT /profiles/{id}, POST /profiles,
 * GET /profiles/{id}/toggle_like/{employee_id}, GET /profiles/{id}/likers,
 * GET /profile_comments/{profile_id}, GET /profile_comments/{id}/replies, POST /profile_comments,
 * PUT /profile_comments/{comment_id} (its author edits the text), DELETE /profile_comments/{comment_id}.
 */
export function profileRoutes(r: Router): void {
  r.post(
    '/profile_images',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const image = await ctx.services.profiles.images.upload(ctx, {
        kind: b.kind,
        name: b.name,
        dataUrl: b.data_url ?? b.dataUrl,
      });
      return { url: image.url, thumbnail_url: image.thumbnailUrl, width: image.width, height: image.height };
    }, 201),
  );
  r.get(
    '/avatars/:employeeId',
    handle(async (ctx, req, res) => {
      const face = await faceOf(ctx, Number(req.params.employeeId));
      res.set(FACE_HEADERS);
      if ('redirect' in face) res.redirect(302, face.redirect);
      else res.type('image/svg+xml').send(face.svg);
    }),
  );
  r.get(
    '/profile_images/:file',
    handle(async (ctx, req, res) => {
      const file = await ctx.services.profiles.images.open(ctx, String(req.params.file));
      res.set(file.headers);
      await pipeline(file.stream, res);
    }),
  );
  r.get(
    '/profiles',
    listRoute(
      () => undefined,
      async (_ctx, q) => ({
        title: typeof q.title === 'string' ? q.title : null,
        name: typeof q.name === 'string' ? q.name : null,
        departmentId: queryId(q.department_id, 'department_id') ?? null,
        q: typeof q.q === 'string' ? q.q : null,
      }),
      (ctx, f, offset, limit) => ctx.services.profiles.profiles.list(ctx, f, offset, limit),
      (p) => toApiProfile(p),
    ),
  );
  r.get(
    '/profiles/employee/:employeeId',
    handle(async (ctx, req) => {
      const p = await ctx.services.profiles.profiles.ofEmployee(ctx, pathId(req.params.employeeId, '社員'));
      if (!p) throw profileNotFound();
      return toApiProfile(p, await ctx.services.profiles.profiles.likerIds(ctx.em, p.id));
    }),
  );
  r.get(
    '/profiles/:id',
    handle(async (ctx, req) => {
      const p = await ctx.services.profiles.profiles.get(ctx, pathId(req.params.id, 'プロフィール'));
      return toApiProfile(p, await ctx.services.profiles.profiles.likerIds(ctx.em, p.id));
    }),
  );
  r.post(
    '/profiles',
    writeRoute(
      profileResource,
      (ctx, input, req) => {
        withBody(req);
        return ctx.services.profiles.profiles.create(ctx, input, 'html');
      },
      201,
    ),
  );
  r.put(
    '/profiles/:id',
    writeRoute(profileResource, (ctx, input, req) => {
      withBody(req);
      return ctx.services.profiles.profiles.update(
        ctx,
        pathId(req.params.id, 'プロフィール'),
        input,
        'html',
        'replace',
      );
    }),
  );
  r.get(
    '/profiles/:id/toggle_like/:employeeId',
    handle(async (ctx, req) => {
      const id = pathId(req.params.id, 'プロフィール');
      // The spec names the liker in the path: only the signed-in employee likes as themself.
      if (pathId(req.params.employeeId, '社員') !== ctx.user?.id)
        throw forbidden('いいねできるのはログイン中の社員としてだけです。');
      return { likes_employee_ids: (await ctx.services.profiles.profiles.toggleLike(ctx, id)).join(',') };
    }),
  );
  r.get(
    '/profiles/:id/likers',
    handle(async (ctx, req) =>
      (
        await ctx.services.profiles.profiles.likers(
          ctx,
          pathId(req.params.id, 'プロフィール'),
          req.query.offset,
          req.query.limit,
        )
      ).map((l) => ({
        employee_id: l.id,
        name: l.name,
        department: l.departmentName,
        location: l.locationName,
        status: l.status,
        email: l.email,
      })),
    ),
  );
  r.get(
    '/profile_comments/:id',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const p = await ctx.services.profiles.comments.list(
        ctx,
        pathId(req.params.id, 'プロフィール'),
        q.cursor,
        q.limit,
      );
      res.setHeader('X-Total-Count', String(p.totalCount));
      return cursorPage(res, p, toApiComment);
    }),
  );
  r.get(
    '/profile_comments/:id/replies',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      return cursorPage(
        res,
        await ctx.services.profiles.comments.replies(ctx, pathId(req.params.id, 'コメント'), q.cursor, q.limit),
        toApiComment,
      );
    }),
  );
  r.post(
    '/profile_comments',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const author = bodyId(b.employee_id, 'employee_id');
      if (author !== null && author !== ctx.user?.id)
        throw forbidden('employee_id はログイン中の社員の ID にしてください（ほかの社員としてはコメントできません）。');
      if (b.attachment !== undefined && b.attachment !== null && b.attachment !== '')
        throw badInput('プロフィールのコメントにはファイルを添付できません。', [
          { field: 'attachment', message: '添付不可' },
        ]);
      const profileId = bodyId(b.profile_id, 'profile_id');
      if (profileId === null)
        throw badInput('profile_id を指定してください。', [{ field: 'profile_id', message: '必須' }]);
      const parentId = bodyId(b.parent_comment_id, 'parent_comment_id');
      return toApiComment(await ctx.services.profiles.comments.add(ctx, { profileId, content: b.content, parentId }));
    }, 201),
  );
  r.put(
    '/profile_comments/:id',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      return toApiComment(await ctx.services.profiles.comments.edit(ctx, pathId(req.params.id, 'コメント'), b.content));
    }),
  );
  r.delete(
    '/profile_comments/:id',
    deleteRoute('comment_id', 'コメント', (ctx, id) => ctx.services.profiles.comments.delete(ctx, id)),
  );
}
