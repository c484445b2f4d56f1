import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';
import { jpegWithGps, png, pngBomb } from '../../lib/files/test-files.js';

/** A profile's pictures: uploaded, checked by content, stored without metadata, bound by the owner's save, seen by everyone once shown. */
let p: TestPlatform;
let staff: string;
let other: string;
let profileId: number;
beforeAll(async () => {
  p = await startTestPlatform();
  staff = await loginToken(p.url, 'staff');
  other = await loginToken(p.url, 'devadmin');
  profileId = (await gql(p.url, `{ employeeProfile { id } }`, {}, { token: staff })).body.data.employeeProfile.id;
});
afterAll(async () => p?.close());

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const upload = (token: string, kind: string, bytes: Buffer, name = 'photo.png', type = 'image/png') =>
  api(p.url, 'POST', '/profile_images', { token, body: { kind, name, data_url: dataUrl(type, bytes) } });
const bytesOf = async (token: string, url: string) => {
  const r = await fetch(`${p.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
};
const UPDATE = `mutation($id: Int!, $i: ProfileInput!) { updateProfile(id: $id, input: $i) { avatar { url thumbnailUrl width height } hobbyImages { url } } }`;

describe('profile pictures', () => {
  it('an avatar is stored as a 512 px square WebP and a 96 px face without EXIF; seen by its uploader until the save shows it to everyone', async () => {
    const up = await upload(staff, 'avatar', await jpegWithGps(1200, 900), 'me.jpg', 'image/jpeg');
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ width: 512, height: 512 });
    const shown = await bytesOf(staff, up.body.url);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/webp');
    expect(shown.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(shown.body).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif }).toEqual({
      format: 'webp',
      width: 512,
      height: 512,
      exif: undefined,
    });
    expect((await sharp((await bytesOf(staff, up.body.thumbnail_url)).body).metadata()).width).toBe(96);
    expect((await bytesOf(other, up.body.url)).status).toBe(404); // not shown anywhere yet

    const saved = await gql(p.url, UPDATE, { id: profileId, i: { avatar: up.body.url } }, { token: staff });
    expect(saved.body.errors).toBeUndefined();
    expect(saved.body.data.updateProfile.avatar).toMatchObject({
      url: up.body.url,
      thumbnailUrl: up.body.thumbnail_url,
      width: 512,
    });
    expect((await bytesOf(other, up.body.thumbnail_url)).status).toBe(200);
    const rest = await api(p.url, 'GET', `/profiles/${profileId}`, { token: other });
    expect(rest.body).toMatchObject({ avatar: up.body.url, avatar_thumbnail: up.body.thumbnail_url });
  });

  it('refuses what is no picture, a decompression bomb, someone else’s upload and more than 10 photos; nothing is bound', async () => {
    const text = await upload(staff, 'hobby', Buffer.from('not a picture at all'), 'fake.png');
    expect(text).toMatchObject({ status: 400, body: { code: 'BAD_USER_INPUT', reason: 'PROFILE_IMAGE' } });
    expect(text.body.error).toContain('趣味の写真（Hobby）');
    const bomb = await upload(staff, 'hobby', pngBomb());
    expect(bomb.status).toBe(400);
    expect((await upload(staff, 'selfie', await png())).status).toBe(400);

    const theirs = await upload(other, 'hobby', await png());
    const refused = await gql(
      p.url,
      UPDATE,
      { id: profileId, i: { hobbyImages: [theirs.body.url] } },
      { token: staff },
    );
    expect(refused.body.errors[0]).toMatchObject({
      message: '趣味の写真には、この画面でアップロードした画像だけ使えます。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const mine = [];
    for (let i = 0; i < 11; i++) mine.push((await upload(staff, 'hobby', await png(80 + i, 60))).body.url);
    const tooMany = await gql(p.url, UPDATE, { id: profileId, i: { hobbyImages: mine } }, { token: staff });
    expect(tooMany.body.errors[0].message).toBe('趣味の写真は10枚までです。');
    const ten = await gql(p.url, UPDATE, { id: profileId, i: { hobbyImages: mine.slice(0, 10) } }, { token: staff });
    expect(ten.body.data.updateProfile.hobbyImages.map((i: { url: string }) => i.url)).toEqual(mine.slice(0, 10));
    // An avatar's upload is not a hobby photo.
    const avatar = await upload(staff, 'avatar', await png());
    expect(
      (await gql(p.url, UPDATE, { id: profileId, i: { hobbyImages: [avatar.body.url] } }, { token: staff })).body
        .errors[0].extensions.code,
    ).toBe('BAD_USER_INPUT');
  });

  it('the spec’s /api client sends pictures as data URLs in the profile itself; PUT replaces them like every field', async () => {
    const body = {
      title: '営業',
      avatar: dataUrl('image/png', await png(300, 200)),
      hobby_images: JSON.stringify([dataUrl('image/png', await png(40, 40))]),
    };
    const put = await api(p.url, 'PUT', `/profiles/${profileId}`, { token: staff, body });
    expect(put.status).toBe(200);
    expect(put.body.avatar).toMatch(/^\/api\/profile_images\/[0-9a-f-]+\.webp$/);
    expect(JSON.parse(put.body.hobby_images)).toHaveLength(1);
    const bare = await api(p.url, 'PUT', `/profiles/${profileId}`, { token: staff, body: { title: '営業' } });
    expect({ avatar: bare.body.avatar, hobby_images: bare.body.hobby_images }).toEqual({
      avatar: null,
      hobby_images: '[]',
    });
  });
});

describe('unused profile pictures', () => {
  it('are swept after a week with both files; shown ones stay', async () => {
    const { sweepUnusedProfileImages } = await import('./profile-image.sweep.js');
    const { LocalFileStorage, defaultFilesRoot } = await import('../../lib/files/index.js');
    const files = new LocalFileStorage(defaultFilesRoot(p.config.dataDir));
    const loose = await upload(staff, 'talent', await png());
    const kept = await upload(staff, 'talent', await png());
    await gql(p.url, UPDATE, { id: profileId, i: { talentImages: [kept.body.url] } }, { token: staff });
    const inAWeek = new Date(Date.now() + 8 * 86_400_000);
    expect(await sweepUnusedProfileImages(p.db.orm.em.fork(), files, { now: inAWeek })).toBeGreaterThan(0);
    expect((await bytesOf(staff, loose.body.url)).status).toBe(404);
    expect((await bytesOf(staff, loose.body.thumbnail_url)).status).toBe(404);
    expect((await bytesOf(other, kept.body.url)).status).toBe(200);
  });
});

describe('a person’s face at one URL', () => {
  it('redirects to the avatar’s thumbnail, or draws the initials; briefly cached; unknown ids are 404 and strangers 401', async () => {
    const face = (token: string | null, id: number) =>
      fetch(`${p.url}/api/avatars/${id}`, {
        redirect: 'manual',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
    const up = await upload(staff, 'avatar', await png(200, 200));
    await gql(p.url, UPDATE, { id: profileId, i: { avatar: up.body.url } }, { token: staff });
    const [{ employee_id: staffId }] = await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`select employee_id from profile where id = ?`, [profileId]);
    const withPicture = await face(other, staffId);
    expect(withPicture.status).toBe(302);
    expect(withPicture.headers.get('location')).toBe(up.body.thumbnail_url);
    expect(withPicture.headers.get('cache-control')).toBe('private, max-age=300');
    const [{ id: noPicture, name }] = await p.db.orm.em
      .fork()
      .getConnection()
      .execute(
        `select e.id, e.name from employee e where not exists (select 1 from profile p join profile_image i on i.profile_id = p.id and i.kind = 'avatar' where p.employee_id = e.id) order by e.id limit 1`,
      );
    const initials = await face(other, noPicture);
    expect(initials.status).toBe(200);
    expect(initials.headers.get('content-type')).toContain('image/svg+xml');
    expect(initials.headers.get('content-security-policy')).toContain('sandbox');
    expect(await initials.text()).toContain(`>${[...name][0]}</text>`);
    expect((await face(other, 99999)).status).toBe(404);
    expect((await face(null, staffId)).status).toBe(401);
  });
});
