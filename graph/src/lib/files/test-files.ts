import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';

/** Files for the tests, made here rather than committed as binaries. */
export const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
export const jpeg = (width = 64, height = 48, orientation?: number) => {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } }).jpeg({
    quality: 80,
  });
  return (orientation ? img.withMetadata({ orientation }) : img).toBuffer();
};
/** A phone's photo: a JPEG whose EXIF names the camera and where it was taken (35.68°N 139.76°E), optionally to be turned. */
export const jpegWithGps = (width = 64, height = 48, orientation?: number) => {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 15' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '35/1 40/1 4800/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '139/1 45/1 3600/100',
      },
    });
  return (orientation ? img.withMetadata({ orientation }) : img).toBuffer();
};

/** A PNG with EXIF (eXIf) and text chunks, as screenshot and editing tools write them. */
export const pngWithMetadata = async (width = 40, height = 30) => {
  const plain = await png(width, height);
  const exif = await sharp(await jpegWithGps()).metadata();
  const iend = plain.length - 12;
  return Buffer.concat([
    plain.subarray(0, iend),
    chunk('eXIf', exif.exif!),
    chunk('tEXt', Buffer.from('Comment\0taken at home', 'latin1')),
    plain.subarray(iend),
  ]);
};

export const gif = (width = 32, height = 32) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 160, b: 0, alpha: 1 } } })
    .gif()
    .toBuffer();
export const animatedGif = async () => {
  const frame = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } })
    .raw()
    .toBuffer();
  const frames = Buffer.concat([frame, Buffer.alloc(frame.length, 0x80)]);
  return sharp(frames, { raw: { width: 16, height: 32, channels: 3, pageHeight: 16 } })
    .gif({ delay: [100, 100] })
    .toBuffer();
};
export const webp = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
    .webp()
    .toBuffer();

/** A small, well-formed one-page PDF. */
export function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
    '<< /Length 35 >>\nstream\nBT /F1 12 Tf 20 100 Td (Hi) Tj ET\nendstream',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const chunk = (type: string, data: Buffer) => {
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

/**
 * A decompression bomb: a valid PNG header claiming width × height pixels (greyscale, 8 bit) with a
 * few kilobytes of deflated zeros: what a 50,000 × 50,000 image of one colour compresses to, in part.
 */
export function pngBomb(width = 50_000, height = 50_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const rows = deflateSync(Buffer.alloc((width + 1) * 64), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 日本語のテキスト in Shift_JIS, as older Windows tools save it. */
export const SHIFT_JIS_TEXT = Buffer.from([
  0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x83, 0x65, 0x83, 0x4c, 0x83, 0x58, 0x83, 0x67, 0x0d, 0x0a,
]);
