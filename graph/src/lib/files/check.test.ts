import { describe, expect, it } from 'vitest';
import { checkAttachment, FileCheckError, MAX_ATTACHMENT_BYTES, textCharset, type FileErrorCode } from './index.js';
import { animatedGif, gif, jpeg, pdf, png, pngBomb, SHIFT_JIS_TEXT, webp } from './test-files.js';

async function refusal(
  bytes: Uint8Array,
  fileName: string,
  options?: Parameters<typeof checkAttachment>[1],
): Promise<{ code: FileErrorCode; message: string; status: number }> {
  try {
    await checkAttachment({ bytes, fileName }, options);
  } catch (e) {
    expect(e).toBeInstanceOf(FileCheckError);
    const err = e as FileCheckError;
    return { code: err.code, message: err.message, status: err.status };
  }
  throw new Error(`accepted ${fileName}`);
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

describe('checkAttachment accepts each allowed kind by its content', () => {
  it('png, jpg, jpeg, gif (animated too), decoded in full', async () => {
    expect(await checkAttachment({ bytes: await png(64, 48), fileName: '会議室の写真.PNG' })).toEqual({
      kind: 'png',
      bytes: expect.any(Uint8Array),
      contentType: 'image/png',
      extension: 'png',
      size: expect.any(Number),
      displayName: '会議室の写真.PNG',
      image: { width: 64, height: 48, frames: 1 },
    });
    expect(await checkAttachment({ bytes: await jpeg(), fileName: 'a.jpg' })).toMatchObject({
      kind: 'jpeg',
      contentType: 'image/jpeg',
      extension: 'jpg',
    });
    expect(await checkAttachment({ bytes: await jpeg(), fileName: 'a.jpeg' })).toMatchObject({
      kind: 'jpeg',
      extension: 'jpeg',
    });
    expect(await checkAttachment({ bytes: await gif(), fileName: 'a.gif' })).toMatchObject({
      kind: 'gif',
      contentType: 'image/gif',
    });
    expect(await checkAttachment({ bytes: await animatedGif(), fileName: 'anim.gif' })).toMatchObject({
      kind: 'gif',
      image: { width: 16, height: 16, frames: 2 },
    });
  });

  it('pdf with its header and end marker', async () => {
    expect(await checkAttachment({ bytes: pdf(), fileName: '議事録.pdf' })).toMatchObject({
      kind: 'pdf',
      contentType: 'application/pdf',
      displayName: '議事録.pdf',
    });
  });

  it('text in UTF-8 (with or without BOM) or Shift_JIS, the charset recorded', async () => {
    expect(await checkAttachment({ bytes: utf8('お知らせ\r\n\t本文です。\n'), fileName: 'memo.txt' })).toMatchObject({
      kind: 'txt',
      contentType: 'text/plain; charset=utf-8',
      charset: 'utf-8',
    });
    expect(
      await checkAttachment({
        bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('BOM付き')]),
        fileName: 'bom.txt',
      }),
    ).toMatchObject({ charset: 'utf-8' });
    expect(await checkAttachment({ bytes: SHIFT_JIS_TEXT, fileName: 'sjis.txt' })).toMatchObject({
      kind: 'txt',
      contentType: 'text/plain; charset=shift_jis',
      charset: 'shift_jis',
    });
    // Markup in a .txt is text: it is served as text/plain and downloaded, never rendered.
    expect(
      await checkAttachment({ bytes: utf8('<?xml version="1.0"?><svg onload="alert(1)"/>'), fileName: 'x.txt' }),
    ).toMatchObject({
      kind: 'txt',
      contentType: 'text/plain; charset=utf-8',
    });
    expect(
      await checkAttachment({ bytes: utf8('<html><script>alert(1)</script>'), fileName: 'page.txt' }),
    ).toMatchObject({ kind: 'txt' });
  });

  it('at exactly 5 MB', async () => {
    expect(
      await checkAttachment({ bytes: Buffer.alloc(MAX_ATTACHMENT_BYTES, 0x61), fileName: 'big.txt' }),
    ).toMatchObject({ size: 5 * 1024 * 1024 });
  });
});

describe('checkAttachment refuses', () => {
  it('an empty file and one past 5 MB', async () => {
    expect(await refusal(Buffer.alloc(0), 'a.txt')).toMatchObject({
      code: 'FILE_EMPTY',
      message: '空のファイルは添付できません。',
      status: 400,
    });
    expect(await refusal(Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61), 'a.txt')).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'ファイルサイズが上限（5 MB）を超えています。',
      status: 413,
    });
  });

  it('names whose extension is not allowed, or missing', async () => {
    for (const name of [
      'setup.exe',
      'page.html',
      'image.svg',
      'photo.webp',
      'archive.zip',
      'noextension',
      'report.pdf.exe',
    ]) {
      const r = await refusal(utf8('hello'), name);
      expect(r.code, name).toBe('FILE_TYPE_NOT_ALLOWED');
      expect(r.status).toBe(415);
    }
    expect((await refusal(utf8('x'), 'a.exe')).message).toBe(
      'この種類のファイルは添付できません。添付できるのは txt、pdf、png、jpg、jpeg、gif です。',
    );
  });

  it('content of an allowed kind under another kind’s extension (a PNG named .pdf)', async () => {
    const r = await refusal(await png(), 'report.pdf');
    expect(r).toMatchObject({ code: 'FILE_CONTENT_MISMATCH', status: 415 });
    expect(r.message).toBe(
      'ファイルの中身（PNG 画像）が名前の拡張子（.pdf）と合いません。正しい拡張子の名前にしてから添付してください。',
    );
    expect((await refusal(pdf(), 'photo.png')).code).toBe('FILE_CONTENT_MISMATCH');
    expect((await refusal(await jpeg(), 'photo.gif')).code).toBe('FILE_CONTENT_MISMATCH');
    expect((await refusal(await gif(), 'notes.txt')).code).toBe('FILE_CONTENT_MISMATCH');
    expect((await refusal(utf8('just text'), 'photo.png')).code).toBe('FILE_CONTENT_MISMATCH');
  });

  it('content of a kind that is not allowed, whatever the name says', async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(100)]);
    const r = await refusal(zip, 'photo.png');
    expect(r.code).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(r.message).toMatch(/^ファイルの中身が添付できない種類（zip）です。/);
    expect((await refusal(await webp(), 'photo.png')).code).toBe('FILE_TYPE_NOT_ALLOWED');
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(200)]);
    expect((await refusal(elf, 'readme.txt')).code).toBe('FILE_TYPE_NOT_ALLOWED');
  });

  it('binary named .txt, and text with NUL or control characters (UTF-16 included)', async () => {
    expect((await refusal(Buffer.from([0x01, 0x02, 0x03, 0x00, 0x04, 0x9f]), 'a.txt')).code).toBe(
      'FILE_CONTENT_MISMATCH',
    );
    expect((await refusal(utf8('abc\u0000def'), 'a.txt')).code).toBe('FILE_CONTENT_MISMATCH');
    expect((await refusal(utf8('abc\u0007def'), 'a.txt')).code).toBe('FILE_CONTENT_MISMATCH');
    expect(await refusal(Buffer.from('\ufeffテキスト', 'utf16le'), 'a.txt')).toMatchObject({
      code: 'FILE_CONTENT_MISMATCH',
      message: 'UTF-16 のテキストは添付できません。UTF-8 で保存し直してから添付してください。',
    });
    expect(textCharset(Buffer.from([0x82]))).toBeNull();
  });

  it('a truncated image and a PDF cut short, as unreadable', async () => {
    const whole = await png(300, 300);
    expect(await refusal(whole.subarray(0, whole.length - 200), 'cut.png')).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: 'PNG 画像として読み取れませんでした。ファイルが壊れていないか確かめてください。',
    });
    const j = await jpeg(300, 300);
    expect((await refusal(j.subarray(0, 200), 'cut.jpg')).code).toBe('FILE_UNREADABLE');
    const p = pdf();
    expect((await refusal(p.subarray(0, p.length - 20), 'cut.pdf')).code).toBe('FILE_UNREADABLE');
    expect((await refusal(Buffer.from('%PDF-junk %%EOF'), 'junk.pdf')).code).toBe('FILE_UNREADABLE');
  });

  it('a decompression bomb from its header, before decoding a pixel', async () => {
    const bomb = pngBomb(50_000, 50_000);
    expect(bomb.length).toBeLessThan(MAX_ATTACHMENT_BYTES);
    const started = process.hrtime.bigint();
    const r = await refusal(bomb, 'bomb.png');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    expect(r).toMatchObject({ code: 'FILE_IMAGE_TOO_LARGE', status: 413 });
    expect(r.message).toBe('画像の画素数が大きすぎます（上限 40 百万画素）。縮小してから添付してください。');
    console.log(`bomb (2.5 gigapixels in ${bomb.length} bytes) refused in ${ms.toFixed(1)} ms`);
  });

  it('an image past a smaller pixel bound given by the caller', async () => {
    expect((await refusal(await png(200, 100), 'a.png', { maxPixels: 19_999 })).code).toBe('FILE_IMAGE_TOO_LARGE');
    expect(
      await checkAttachment({ bytes: await png(200, 100), fileName: 'a.png' }, { maxPixels: 20_000 }),
    ).toMatchObject({ kind: 'png' });
  });

  it('kinds left out by the caller (comments could allow images only)', async () => {
    expect((await refusal(pdf(), 'a.pdf', { allowed: ['png', 'jpeg', 'gif'] })).message).toBe(
      'この種類のファイルは添付できません。添付できるのは png、jpg、jpeg、gif です。',
    );
  });
});
