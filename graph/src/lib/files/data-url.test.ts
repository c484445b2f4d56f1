import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FileCheckError,
  MAX_ATTACHMENT_BYTES,
  maxBase64Length,
  parseDataUrl,
  parseUploadFiles,
  type FileErrorCode,
} from './index.js';

function code(fn: () => unknown): FileErrorCode {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(FileCheckError);
    return (e as FileCheckError).code;
  }
  throw new Error('accepted');
}

const dataUrl = (bytes: Buffer, type = 'text/plain') => `data:${type};base64,${bytes.toString('base64')}`;

describe('parseDataUrl', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads what FileReader.readAsDataURL writes', () => {
    expect(parseDataUrl(dataUrl(Buffer.from('こんにちは')))).toEqual({
      mediaType: 'text/plain',
      bytes: Buffer.from('こんにちは'),
    });
    expect(parseDataUrl('data:Image/PNG;name=a.png;base64,iVBORw0KGgo=').mediaType).toBe('image/png');
    expect(parseDataUrl('DATA:;base64,YQ==')).toEqual({
      mediaType: 'application/octet-stream',
      bytes: Buffer.from('a'),
    });
  });

  it('refuses what is not a base64 data URL, with a typed error', () => {
    for (const bad of [
      undefined,
      42,
      '',
      'https://x.example/a.png',
      'data:text/plain,hello',
      'data:text/plain;base64',
      'data:text/plain;base64,YQ=',
      'data:text/plain;base64,Y Q==',
      'data:text/plain;base64,YQ==\n',
      'data:text/plain;base64,Y-_=',
      'data:te<xt;base64,YQ==',
      `data:${'x'.repeat(300)};base64,YQ==`,
    ]) {
      expect(
        code(() => parseDataUrl(bad)),
        JSON.stringify(bad),
      ).toBe('FILE_DATA_MALFORMED');
    }
    expect(code(() => parseDataUrl('data:text/plain;base64,'))).toBe('FILE_EMPTY');
    try {
      parseDataUrl('data:text/plain,hello');
    } catch (e) {
      expect((e as Error).message).toBe(
        'ファイルのデータ形式が正しくありません（base64 のデータ URL だけ受け付けます）。',
      );
    }
  });

  it('takes exactly 5 MB and refuses one byte more', () => {
    expect(parseDataUrl(dataUrl(Buffer.alloc(MAX_ATTACHMENT_BYTES, 7))).bytes.length).toBe(MAX_ATTACHMENT_BYTES);
    expect(code(() => parseDataUrl(dataUrl(Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 7))))).toBe('FILE_TOO_LARGE');
  });

  it('refuses a payload too long for the limit without decoding it', () => {
    const from = vi.spyOn(Buffer, 'from');
    const huge = `data:image/png;base64,${'A'.repeat(maxBase64Length(MAX_ATTACHMENT_BYTES) + 4)}`;
    expect(code(() => parseDataUrl(huge))).toBe('FILE_TOO_LARGE');
    // Not even a malformed tail is looked at: the length alone decides.
    expect(code(() => parseDataUrl(`${huge}!!!`))).toBe('FILE_TOO_LARGE');
    expect(from).not.toHaveBeenCalled();
  });
});

describe('parseUploadFiles', () => {
  const file = { uid: 'rc-upload-1', name: '議事録.txt', url: dataUrl(Buffer.from('本文')), type: 'text/plain' };

  it('reads the spec’s JSON string of one file, or the parsed object, or an array of one', () => {
    const expected = {
      kind: 'upload',
      uid: 'rc-upload-1',
      name: '議事録.txt',
      declaredType: 'text/plain',
      mediaType: 'text/plain',
      bytes: Buffer.from('本文'),
    };
    expect(parseUploadFiles(JSON.stringify(file))).toEqual(expected);
    expect(parseUploadFiles(file)).toEqual(expected);
    expect(parseUploadFiles(JSON.stringify([file]))).toEqual(expected);
  });

  it('reads a kept attachment as its stored key', () => {
    expect(parseUploadFiles({ name: 'a.png', url: '/files/blog/abc.png' })).toEqual({
      kind: 'stored',
      name: 'a.png',
      key: 'blog/abc.png',
    });
  });

  it('reads empty values as no file', () => {
    for (const none of [null, undefined, '', '[]', '{}', [], 'null'])
      expect(parseUploadFiles(none), JSON.stringify(none)).toBeNull();
  });

  it('refuses two files, bad JSON, missing names and foreign URLs', () => {
    expect(code(() => parseUploadFiles([file, file]))).toBe('FILE_TOO_MANY');
    expect(code(() => parseUploadFiles('{"name":'))).toBe('FILE_DATA_MALFORMED');
    expect(code(() => parseUploadFiles({ url: file.url }))).toBe('FILE_DATA_MALFORMED');
    expect(code(() => parseUploadFiles({ name: 'a.png', url: 'https://evil.example/a.png' }))).toBe(
      'FILE_DATA_MALFORMED',
    );
    expect(code(() => parseUploadFiles({ name: 'a.png', url: '/files/../etc/passwd' }))).toBe('FILE_DATA_MALFORMED');
    expect(code(() => parseUploadFiles('"text"'))).toBe('FILE_DATA_MALFORMED');
  });

  it('refuses an oversized JSON text before parsing it', () => {
    const parse = vi.spyOn(JSON, 'parse');
    expect(code(() => parseUploadFiles(' '.repeat(maxBase64Length(MAX_ATTACHMENT_BYTES) + 64 * 1024 + 1)))).toBe(
      'FILE_TOO_LARGE',
    );
    expect(parse).not.toHaveBeenCalled();
  });
});
