import sharp from 'sharp';
import { MAX_IMAGE_PIXELS } from './attachment-types.js';
import { FileCheckError } from './errors.js';

export interface Thumbnail {
  bytes: Buffer;
  width: number;
  height: number;
  contentType: 'image/webp';
}

export interface ThumbnailOptions {
  /** Width of the card image; never enlarged. */
  width?: number;
  /** A bound for tall images (a long screenshot would otherwise make a very tall card). */
  maxHeight?: number;
  maxPixels?: number;
}

/**
 * A WebP thumbnail for the cards: EXIF orientation applied (a phone's portrait photo stands up),
 * fitted inside width × maxHeight without enlarging, the first frame of an animated GIF, and no
 * metadata at all (sharp writes none unless asked: no GPS position or camera serial leaves the
 * server).
 */
export async function makeThumbnail(bytes: Uint8Array, options: ThumbnailOptions = {}): Promise<Thumbnail> {
  const width = options.width ?? 480;
  const maxHeight = options.maxHeight ?? width * 2;
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: options.maxPixels ?? MAX_IMAGE_PIXELS,
      failOn: 'error',
      animated: false,
    })
      .timeout({ seconds: 20 })
      .autoOrient()
      .resize({ width, height: maxHeight, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height, contentType: 'image/webp' };
  } catch {
    throw new FileCheckError(
      'FILE_UNREADABLE',
      '画像の縮小版を作れませんでした。ファイルが壊れていないか確かめてください。',
    );
  }
}
