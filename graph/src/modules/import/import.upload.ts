import type { Request } from 'express';
import busboy from 'busboy';
import { badInput } from '../../platform/errors.js';
import { tooLarge } from './import.sniff.js';

export interface Upload {
  fileName: string;
  data: Buffer;
}

/**
 * Reads the multipart/form-data field `file` of a request, streaming, and stops reading as soon as
 * it passes `maxBytes` (refused at once with IMPORT_TOO_LARGE; a Content-Length over the limit is
 * refused before any byte is read). Other fields are ignored; a second file is an error.
 */
export function readUpload(req: Request, maxBytes: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.get('content-length') ?? 0);
    if (declared > maxBytes + 64 * 1024) return reject(tooLarge(maxBytes));
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fileSize: maxBytes, fields: 20, parts: 25 },
      });
    } catch {
      return reject(badInput('multipart/form-data の file フィールドでファイルを送ってください。'));
    }
    let upload: Upload | null = null;
    let failed: Error | null = null;
    const fail = (err: Error) => {
      if (failed) return;
      failed = err;
      req.unpipe(bb);
      req.resume(); // drain what is still coming, so the answer can be read
      reject(err);
    };
    bb.on('file', (name, stream, info) => {
      if (name !== 'file') return void stream.resume();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('end', () => {
        if (!failed) upload = { fileName: info.filename ?? '', data: Buffer.concat(chunks) };
      });
    });
    bb.on('filesLimit', () => fail(badInput('ファイルは1つだけ送ってください。')));
    bb.on('error', () => fail(badInput('アップロードを読み込めませんでした。')));
    bb.on('close', () => {
      if (failed) return;
      if (!upload)
        return reject(
          badInput('ファイルを選んでください（multipart/form-data の file フィールド）。', [
            { field: 'file', message: 'ファイルを選んでください。' },
          ]),
        );
      resolve(upload);
    });
    req.pipe(bb);
  });
}
