/**
 * The import's reader thread (see import.reader.ts): reads the files it is given, one at a time,
 * and posts their parsed rows batch by batch, at most `window` batches ahead of the consumer's
 * 'more'. Stays for the next file until the pool ends it.
 */
import { Buffer } from 'node:buffer';
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { parsedRows, type ReaderCommand, type ReaderMessage } from './import.reader.js';
import { ImportFailure } from './import.sheet.js';

const port = parentPort!;
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
let credits = 0;
let wake: (() => void) | null = null;
const send = (m: ReaderMessage) => port.postMessage(m);

async function read(job: Extract<ReaderCommand, { read: true }>): Promise<void> {
  credits = job.window;
  try {
    const file = Buffer.from(job.file.buffer, job.file.byteOffset, job.file.byteLength);
    for await (const rows of parsedRows(file, job.format, job.maxRows, job.refs)) {
      while (credits <= 0) await new Promise<void>((r) => (wake = r));
      credits--;
      send({ rows });
    }
    send({ done: true });
  } catch (err) {
    send({ failure: err instanceof ImportFailure ? err.message : null, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  } finally {
    gc(); // the file's garbage goes now, not when the next file comes
  }
}

port.on('message', (m: ReaderCommand) => {
  if ('read' in m) void read(m);
  else {
    credits++;
    wake?.();
    wake = null;
  }
});
