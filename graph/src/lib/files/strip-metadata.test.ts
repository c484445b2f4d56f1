import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { withoutMetadata } from './strip-metadata.js';
import { gif, jpeg, jpegWithGps, pngWithMetadata } from './test-files.js';

describe('images are stored without their metadata', () => {
  it('a JPEG loses its EXIF (camera, GPS) and keeps its pixels byte for byte', async () => {
    const photo = await jpegWithGps(120, 80);
    const before = await sharp(photo).metadata();
    expect(before.exif).toBeDefined();
    const stored = Buffer.from(await withoutMetadata(photo, 'jpeg'));
    const after = await sharp(stored).metadata();
    expect(after.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect([after.width, after.height]).toEqual([120, 80]);
    // The compressed image itself is untouched: the scan data is the same bytes.
    const scan = (b: Buffer) => b.subarray(b.indexOf(Buffer.from([0xff, 0xda])));
    expect(scan(stored).equals(scan(photo))).toBe(true);
  });

  it('a JPEG that EXIF says to turn is turned, then stored without EXIF', async () => {
    const photo = await jpegWithGps(120, 80, 6);
    const after = await sharp(await withoutMetadata(photo, 'jpeg')).metadata();
    expect([after.width, after.height]).toEqual([80, 120]);
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
  });

  it('a PNG loses eXIf and its text chunks; a JPEG without metadata and a GIF stay as they were', async () => {
    const shot = await pngWithMetadata();
    expect(shot.includes(Buffer.from('eXIf'))).toBe(true);
    expect(shot.includes(Buffer.from('PhoneMaker'))).toBe(true);
    const stored = Buffer.from(await withoutMetadata(shot, 'png'));
    expect(stored.includes(Buffer.from('eXIf'))).toBe(false);
    expect(stored.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(stored.includes(Buffer.from('taken at home'))).toBe(false);
    expect((await sharp(stored).raw().toBuffer()).equals(await sharp(shot).raw().toBuffer())).toBe(true);
    const plain = await jpeg();
    expect(Buffer.from(await withoutMetadata(plain, 'jpeg')).equals(plain)).toBe(true);
    const g = await gif();
    expect(await withoutMetadata(g, 'gif')).toBe(g);
  });
});
