/** A profile picture as the server stores it. */
export interface Picture {
  url: string;
  thumbnailUrl: string;
}

export type PictureKind = 'avatar' | 'hobby' | 'talent' | 'header';

/** The browser's own limits before an upload (the server checks again by content). */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];
export const MAX_SOURCE_BYTES = 20 * 1024 * 1024;
/** Photos are sent at most this wide or high (the server keeps 1600 px): a phone's 24-megapixel photo travels as a few hundred kilobytes. */
const SEND_MAX = 2048;

export class PictureRefused extends Error {}

const blobToDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(blob);
  });

const canvasBlob = (canvas: HTMLCanvasElement, type: string, quality?: number) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encode failed'))), type, quality),
  );

/** Sends a picture to POST /api/profile_images (JSON with the session cookie); the server's refusal is thrown as it words it. */
export async function uploadPicture(kind: PictureKind, blob: Blob, name: string, failed: string): Promise<Picture> {
  const res = await fetch('/api/profile_images', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind, name, data_url: await blobToDataUrl(blob) }),
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string; thumbnail_url?: string; error?: string };
  if (!res.ok || !body.url || !body.thumbnail_url)
    throw new PictureRefused(res.status === 400 && body.error ? body.error : failed);
  return { url: body.url, thumbnailUrl: body.thumbnail_url };
}

/** A chosen file as a decoded picture (turned as its EXIF says), or a refusal worded for people. */
export async function decode(
  file: File,
  messages: { type: string; size: string; unreadable: string },
): Promise<ImageBitmap> {
  if (!PICTURE_TYPES.includes(file.type)) throw new PictureRefused(messages.type);
  if (file.size > MAX_SOURCE_BYTES) throw new PictureRefused(messages.size);
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    throw new PictureRefused(messages.unreadable);
  }
}

/** A photo made small enough to send (JPEG, at most SEND_MAX on its longer side). */
export async function forSending(image: ImageBitmap): Promise<Blob> {
  const scale = Math.min(1, SEND_MAX / Math.max(image.width, image.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(image.width * scale);
  canvas.height = Math.round(image.height * scale);
  canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvasBlob(canvas, 'image/jpeg', 0.9);
}

/** The square the person chose of their picture, as a 512 px PNG (the avatar the server stores). */
export async function croppedSquare(image: ImageBitmap, crop: { x: number; y: number; size: number }): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = 512;
  canvas.height = 512;
  const ctx = canvas.getContext('2d')!;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, crop.x, crop.y, crop.size, crop.size, 0, 0, 512, 512);
  return canvasBlob(canvas, 'image/png');
}

/**
 * Where the crop square lies in the picture: `zoom` 1 is the largest square that fits, larger zooms
 * a smaller one; `cx`, `cy` (0–1) its centre, kept inside the picture.
 */
export function cropOf(
  width: number,
  height: number,
  zoom: number,
  cx: number,
  cy: number,
): { x: number; y: number; size: number } {
  const size = Math.min(width, height) / Math.max(1, zoom);
  const x = Math.min(Math.max(cx * width - size / 2, 0), width - size);
  const y = Math.min(Math.max(cy * height - size / 2, 0), height - size);
  return { x, y, size };
}
