/** The attachments a post or comment may carry (spec §5, §9): txt, pdf, png, jpg/jpeg, gif. */
export type AttachmentKind = 'txt' | 'pdf' | 'png' | 'jpeg' | 'gif';

export interface AttachmentType {
  /** Extensions a file of this kind may be named with, lower case. */
  extensions: readonly string[];
  mime: string;
  /** Shown by the browser in place (images, PDF) rather than downloaded. */
  inline: boolean;
  /** The name users know it by, in messages. */
  label: string;
}

export const ATTACHMENT_TYPES: Record<AttachmentKind, AttachmentType> = {
  txt: { extensions: ['txt'], mime: 'text/plain', inline: false, label: 'テキスト' },
  pdf: { extensions: ['pdf'], mime: 'application/pdf', inline: true, label: 'PDF' },
  png: { extensions: ['png'], mime: 'image/png', inline: true, label: 'PNG 画像' },
  jpeg: { extensions: ['jpg', 'jpeg'], mime: 'image/jpeg', inline: true, label: 'JPEG 画像' },
  gif: { extensions: ['gif'], mime: 'image/gif', inline: true, label: 'GIF 画像' },
};

export const ATTACHMENT_KINDS = Object.keys(ATTACHMENT_TYPES) as AttachmentKind[];
export const IMAGE_KINDS: readonly AttachmentKind[] = ['png', 'jpeg', 'gif'];

/** 5 MB, as the spec's client counts it (5 × 1024 × 1024 bytes). */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/**
 * Pixels an image may have (all frames of a GIF together). 40 MP holds a 48 MP phone's usual
 * 12 MP output many times and an 8000 × 5000 scan; a PNG "bomb" of 5 MB can claim billions.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

export function kindOfExtension(ext: string): AttachmentKind | undefined {
  const e = ext.toLowerCase();
  return ATTACHMENT_KINDS.find((k) => ATTACHMENT_TYPES[k].extensions.includes(e));
}

export function kindOfMime(mime: string): AttachmentKind | undefined {
  return ATTACHMENT_KINDS.find((k) => ATTACHMENT_TYPES[k].mime === mime);
}

/** The extension of a file name, lower case, or '' when it has none. */
export function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(fileName.trim());
  return m ? m[1]!.toLowerCase() : '';
}
