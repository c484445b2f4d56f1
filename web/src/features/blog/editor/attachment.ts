/** A post's one attachment as the form holds it. */
export type AttachmentState =
  /** The post's stored file, kept unless replaced or removed. */
  | { kind: 'stored'; file: { name: string; type: string; size: number; url: string; thumbnailUrl: string | null } }
  /** A file chosen now, read into a data URL (the spec's `upload_files`). */
  | { kind: 'new'; uid: string; name: string; type: string; size: number; dataUrl: string }
  | { kind: 'none' };

export const ATTACHMENT_EXTENSIONS = ['txt', 'pdf', 'png', 'jpg', 'jpeg', 'gif'] as const;
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** What the file chooser offers (the check below is what counts; the server checks again by content). */
export const ATTACHMENT_ACCEPT = ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(',');

/** Why a file was refused before it was read (spec §5's 'File type not allowed', 'File size exceeds limit'). */
export type AttachmentRefusal = 'type' | 'size' | 'empty';

/** The client's pre-check of a chosen file, by name and size. */
export function checkAttachment(file: { name: string; size: number }): AttachmentRefusal | null {
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase();
  if (!ext || !(ATTACHMENT_EXTENSIONS as readonly string[]).includes(ext)) return 'type';
  if (file.size > ATTACHMENT_MAX_BYTES) return 'size';
  if (file.size === 0) return 'empty';
  return null;
}

/** Reads a file into a data URL; rejects when the browser cannot read it ('Failed to process file'). */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/** A size for people: 1,234 B, 12.3 KB, 4.5 MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n.toLocaleString('ja-JP')} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
