import type { EntityManager } from '@mikro-orm/postgresql';
import type { Readable } from 'node:stream';
import sharp, { type OutputInfo, type ResizeOptions } from 'sharp';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { AppError, badInput, notFound } from '../../platform/errors.js';
import {
  checkAttachment,
  FileCheckError,
  IMAGE_KINDS,
  isFileKey,
  MAX_IMAGE_PIXELS,
  newFileKey,
  parseDataUrl,
  thumbnailKey,
  type FileStorage,
} from '../../lib/files/index.js';

export const PROFILE_IMAGE_KINDS = ['avatar', 'hobby', 'talent', 'header'] as const;
export type ProfileImageKind = (typeof PROFILE_IMAGE_KINDS)[number];

/** How many pictures of each kind a profile shows. */
export const MAX_IMAGES: Record<ProfileImageKind, number> = { avatar: 1, hobby: 10, talent: 10, header: 10 };

/**
 * What is stored of an upload: the display size (the avatar a square, the browser having cropped
 * it; the header a wide band; photos within 1600 px) and a thumbnail (the avatar's 96 px face used
 * everywhere a person appears, the photos' 480 px cards), WebP, without metadata.
 */
const DISPLAY: Record<ProfileImageKind, ResizeOptions> = {
  avatar: { width: 512, height: 512, fit: 'cover' },
  hobby: { width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true },
  talent: { width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true },
  header: { width: 1920, height: 640, fit: 'cover', withoutEnlargement: true },
};
const THUMB: Record<ProfileImageKind, ResizeOptions> = {
  avatar: { width: 96, height: 96, fit: 'cover' },
  hobby: { width: 480, height: 480, fit: 'inside', withoutEnlargement: true },
  talent: { width: 480, height: 480, fit: 'inside', withoutEnlargement: true },
  header: { width: 960, height: 320, fit: 'cover', withoutEnlargement: true },
};

const NAMESPACE = 'profile-images';
const URL_PREFIX = '/api/profile_images/';
export const profileImageUrl = (key: string) => URL_PREFIX + key.slice(NAMESPACE.length + 1);
const keyOfUrl = (url: unknown): string | null => {
  if (typeof url !== 'string' || !url.startsWith(URL_PREFIX)) return null;
  const key = `${NAMESPACE}/${url.slice(URL_PREFIX.length)}`;
  return isFileKey(key) && key.split('/').length === 2 ? key : null;
};

export interface StoredProfileImage {
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

/** The pictures a save sets: the avatar (null: none) and the three lists, each URL one of `upload`'s. */
export interface ProfilePictures {
  avatar?: unknown;
  hobbyImages?: unknown;
  talentImages?: unknown;
  headerImages?: unknown;
}
const FIELD: Record<ProfileImageKind, keyof ProfilePictures> = {
  avatar: 'avatar',
  hobby: 'hobbyImages',
  talent: 'talentImages',
  header: 'headerImages',
};

/**
 * A profile's pictures. Anyone signed in uploads one (png, jpg or gif, checked by content, at most
 * 5 MB, decoded with a pixel limit so a decompression bomb is refused before it takes memory); the
 * server stores a display size and a thumbnail as WebP, turned as EXIF says and without any
 * metadata (no GPS position leaves the building). The owner's save binds the pictures its profile
 * shows; only the owner's own uploads (or pictures already on that profile) may be shown. Every
 * signed-in employee sees a profile's pictures; an unbound upload only its uploader.
 */
export class ProfileImageService {
  constructor(private readonly files: FileStorage) {}

  async upload(
    ctx: AppContext,
    input: { kind?: unknown; name?: unknown; dataUrl?: unknown },
  ): Promise<StoredProfileImage> {
    const user = requireUser(ctx);
    const kind = PROFILE_IMAGE_KINDS.find((k) => k === input.kind);
    if (!kind)
      throw badInput('画像の種類は avatar・hobby・talent・header のどれかで指定してください。', [
        { field: 'kind', message: 'avatar / hobby / talent / header' },
      ]);
    await ctx.services.writes.count(ctx, user.id, 'upload');
    const name = typeof input.name === 'string' && input.name.trim() ? input.name.trim() : 'image.png';
    let display: { data: Buffer; info: OutputInfo };
    let thumb: Buffer;
    try {
      const { bytes } = parseDataUrl(input.dataUrl);
      const checked = await checkAttachment(
        { bytes, fileName: name },
        { allowed: IMAGE_KINDS, reencodedByCaller: true },
      );
      const source = () =>
        sharp(checked.bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error', animated: false })
          .timeout({ seconds: 20 })
          .autoOrient();
      display = await source().resize(DISPLAY[kind]).webp({ quality: 82 }).toBuffer({ resolveWithObject: true });
      thumb = await sharp(display.data).resize(THUMB[kind]).webp({ quality: 80 }).toBuffer();
    } catch (e) {
      throw pictureRefused(kind, e);
    }
    const key = newFileKey(NAMESPACE, 'webp');
    const thumbKey = thumbnailKey(key);
    await this.files.put(key, display.data, { contentType: 'image/webp' });
    await this.files.put(thumbKey, thumb, { contentType: 'image/webp' });
    await ctx.em.execute(
      `insert into profile_image (key, thumb_key, kind, uploaded_by_id, width, height, size) values (?, ?, ?, ?, ?, ?, ?)`,
      [key, thumbKey, kind, user.id, display.info.width, display.info.height, display.data.length],
    );
    return {
      url: profileImageUrl(key),
      thumbnailUrl: profileImageUrl(thumbKey),
      width: display.info.width,
      height: display.info.height,
    };
  }

  /**
   * Inside a profile's save: the pictures of each kind given become the profile's, in the order
   * given; a kind left out keeps its pictures. Each must be the owner's own upload of that kind not
   * shown elsewhere, or already this profile's; anything else refuses the save (400, nothing bound).
   */
  async bind(tx: EntityManager, ownerId: number, profileId: number, pictures: ProfilePictures): Promise<void> {
    for (const kind of PROFILE_IMAGE_KINDS) {
      const given = pictures[FIELD[kind]];
      if (given === undefined) continue;
      const field = FIELD[kind];
      const list = kind === 'avatar' ? (given === null || given === '' ? [] : [given]) : given === null ? [] : given;
      if (!Array.isArray(list) || list.length > MAX_IMAGES[kind])
        throw badInput(`${LABEL[kind]}は${MAX_IMAGES[kind]}枚までです。`, [
          { field, message: `${MAX_IMAGES[kind]}枚まで` },
        ]);
      const keys = list.map(keyOfUrl);
      if (keys.some((k) => k === null) || new Set(keys).size !== keys.length)
        throw badInput(`${LABEL[kind]}の画像の指定が正しくありません。`, [{ field, message: '画像の URL' }]);
      if (keys.length) {
        const [row]: { refused: number }[] = await tx.execute(
          `select count(*)::int as refused from unnest(?::text[]) k where not exists (
             select 1 from profile_image i where i.key = k and i.kind = ? and (i.profile_id = ? or (i.profile_id is null and i.uploaded_by_id = ?)))`,
          [`{${keys.join(',')}}`, kind, profileId, ownerId],
        );
        if (row!.refused)
          throw badInput(`${LABEL[kind]}には、この画面でアップロードした画像だけ使えます。`, [
            { field, message: '自分のアップロード' },
          ]);
      }
      await tx.execute(
        `update profile_image set profile_id = null where profile_id = ? and kind = ? and not (key = any(?::text[]))`,
        [profileId, kind, `{${keys.join(',')}}`],
      );
      for (const [position, key] of keys.entries())
        await tx.execute(`update profile_image set profile_id = ?, position = ? where key = ?`, [
          profileId,
          position,
          key,
        ]);
    }
  }

  /** A picture or its thumbnail: to anyone signed in once a profile shows it, else only to its uploader. */
  async open(ctx: AppContext, file: string): Promise<{ stream: Readable; headers: Record<string, string> }> {
    const user = requireUser(ctx);
    const key = keyOfUrl(URL_PREFIX + file);
    const [row]: { key: string; thumb_key: string; uploaded_by_id: number; profile_id: number | null }[] = key
      ? await ctx.em.execute(
          `select key, thumb_key, uploaded_by_id, profile_id from profile_image where key = ? or thumb_key = ?`,
          [key, key],
        )
      : [];
    const visible = row && (row.profile_id !== null || row.uploaded_by_id === user.id);
    const stored = visible ? await this.files.get(key!) : null;
    if (!stored) throw notFound('画像');
    return {
      stream: stored.stream,
      headers: {
        'Content-Type': 'image/webp',
        'Content-Length': String(stored.size),
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'Cross-Origin-Resource-Policy': 'same-origin',
        // A key is never reused: a picture may be cached as long as the browser likes (a new one has a new URL).
        'Cache-Control': 'private, max-age=31536000, immutable',
      },
    };
  }
}

const LABEL: Record<ProfileImageKind, string> = {
  avatar: 'プロフィール画像',
  hobby: '趣味の写真',
  talent: '特技の写真',
  header: 'ヘッダー画像',
};
/** The spec names the kind of picture that failed: Avatar, Hobby, Talent, Header BG. */
const SPEC_NAME: Record<ProfileImageKind, string> = {
  avatar: 'Avatar',
  hobby: 'Hobby',
  talent: 'Talent',
  header: 'Header BG',
};

function pictureRefused(kind: ProfileImageKind, e: unknown): AppError {
  const label = `${LABEL[kind]}（${SPEC_NAME[kind]}）`;
  if (e instanceof FileCheckError) {
    const message =
      e.code === 'FILE_TOO_LARGE'
        ? `${label}: ファイルサイズが上限（5 MB）を超えています。`
        : e.code === 'FILE_TYPE_NOT_ALLOWED' || e.code === 'FILE_CONTENT_MISMATCH'
          ? `${label}: png・jpg・gif の画像を選んでください。`
          : `${label}: ${e.message}`;
    return new AppError('BAD_USER_INPUT', message, {
      reason: 'PROFILE_IMAGE',
      fileCode: e.code,
      fieldErrors: [{ field: 'data_url', message }],
    });
  }
  if (e instanceof AppError) return e;
  const message = `${label}: 画像を読み取れませんでした（壊れているか、大きすぎる画像です）。`;
  return new AppError('BAD_USER_INPUT', message, {
    reason: 'PROFILE_IMAGE',
    fieldErrors: [{ field: 'data_url', message }],
  });
}
