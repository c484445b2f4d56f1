/** The first bytes of a file format: a zip (.xlsx, .docx, …) and an OLE2 compound document (.xls, .doc, …). */
export const MAGIC = {
  zip: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  ole2: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
} as const;

/** Whether the file starts with the format's magic bytes. */
export function hasMagic(buf: Buffer, format: keyof typeof MAGIC): boolean {
  const magic = MAGIC[format];
  return buf.length >= magic.length && buf.subarray(0, magic.length).equals(magic);
}
