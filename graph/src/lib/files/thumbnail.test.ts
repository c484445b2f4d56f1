import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FileCheckError, makeThumbnail } from './index.js';
import { animatedGif, gif, jpeg, png, pngBomb } from './test-files.js';

describe('makeThumbnail', () => {
  it('makes a 480 px wide WebP of a large photo', async () => {
    const t = await makeThumbnail(await jpeg(2000, 1500));
    expect(t).toMatchObject({ width: 480, height: 360, contentType: 'image/webp' });
    const meta = await sharp(t.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 360 });
  });

  it('applies the EXIF orientation and keeps no metadata', async () => {
    const source = await jpeg(600, 400, 6); // stored landscape, shown rotated 90°: portrait
    expect((await sharp(source).metadata()).orientation).toBe(6);
    const t = await makeThumbnail(source);
    expect([t.width, t.height]).toEqual([400, 600]);
    const meta = await sharp(t.bytes).metadata();
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
  });

  it('never enlarges, and bounds tall images', async () => {
    expect(await makeThumbnail(await png(100, 50))).toMatchObject({ width: 100, height: 50 });
    expect(await makeThumbnail(await png(500, 5000))).toMatchObject({ width: 96, height: 960 });
    expect(await makeThumbnail(await gif(), { width: 16 })).toMatchObject({ width: 16, height: 16 });
  });

  it('takes the first frame of an animated GIF', async () => {
    const t = await makeThumbnail(await animatedGif());
    expect(t).toMatchObject({ width: 16, height: 16 });
    expect((await sharp(t.bytes).metadata()).pages ?? 1).toBe(1);
  });

  it('refuses broken images and bombs as unreadable', async () => {
    await expect(makeThumbnail(Buffer.from('not an image'))).rejects.toBeInstanceOf(FileCheckError);
    await expect(makeThumbnail(pngBomb())).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});
