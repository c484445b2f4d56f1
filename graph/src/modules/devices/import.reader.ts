import { Worker } from 'node:worker_threads';
import type { ImportRefs } from './import.refs.js';
import { parseRow, readHeader, type HeaderMap, type ParsedRow } from './import.rows.js';
import { ImportFailure, readSheet, type Cell } from './import.sheet.js';
import type { SheetFormat } from './import.sniff.js';

const blank = (cells: Cell[]) => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

export const NO_DATA = 'ファイルにデータがありません（1行目に見出し、2行目から1台ずつ入力してください）。';
export const READER_OUT_OF_MEMORY = 'ファイルの内容が大きすぎるか複雑すぎるため、読み込めませんでした。ファイルを分けて取り込んでください。';

/**
 * The first sheet's data rows, parsed (key, values resolved against `refs`, the row's own errors),
 * in batches (never empty), in file order: blank rows skipped, the first non-blank row is the
 * header. Throws ImportFailure for a file without a header or past `maxRows`.
 */
export async function* parsedRows(buf: Buffer, format: SheetFormat, maxRows: number, refs: ImportRefs): AsyncGenerator<ParsedRow[]> {
  let header: HeaderMap | null = null;
  for await (const batch of readSheet(buf, format, maxRows)) {
    const out: ParsedRow[] = [];
    for (const r of batch) {
      if (blank(r.cells)) continue;
      if (!header) header = readHeader(r.cells);
      else out.push(parseRow(r.row, r.cells, header, refs));
    }
    if (out.length) yield out;
  }
  if (!header) throw new ImportFailure(NO_DATA);
}

/** To the reader thread: read a file, or 'more' (one more batch may be parsed ahead). */
export type ReaderCommand = { read: true; file: Uint8Array; format: SheetFormat; maxRows: number; refs: ImportRefs; window: number } | { more: true };
/** From the reader thread: a batch, the end, or why it stopped (`failure`: an ImportFailure's message). */
export type ReaderMessage = { rows: ParsedRow[] } | { done: true } | { failure: string | null; message: string };

export interface ReaderOptions {
  /** Heap cap of a reader thread (MB): a file that needs more fails its job, never the process. */
  maxHeapMb?: number;
  /** Batches the reader may parse ahead of the consumer. */
  window?: number;
}

type Inbox = ReaderMessage | { crashed: Error } | { exited: number };

/** A reader thread and the messages it sent that nobody has read yet. */
class Reader {
  readonly worker: Worker;
  private readonly inbox: Inbox[] = [];
  private wake: (() => void) | null = null;
  idleTimer: NodeJS.Timeout | null = null;
  dead = false;

  constructor(readonly maxHeapMb: number) {
    this.worker = new Worker(new URL(`./import.reader.worker.${SOURCE ? 'ts' : 'js'}`, import.meta.url), {
      // Tests and `npm run dev` load TypeScript through SWC; the compiled tree needs nothing.
      execArgv: SOURCE ? ['--import', '@swc-node/register/esm-register'] : [],
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    const push = (m: Inbox) => {
      this.inbox.push(m);
      this.wake?.();
      this.wake = null;
    };
    this.worker.on('message', (m: ReaderMessage) => push(m));
    this.worker.on('error', (err: Error) => push({ crashed: err }));
    this.worker.on('exit', (code: number) => {
      this.dead = true;
      push({ exited: code });
    });
  }

  async next(): Promise<Inbox> {
    while (!this.inbox.length) await new Promise<void>((r) => (this.wake = r));
    return this.inbox.shift()!;
  }
}

const SOURCE = import.meta.url.endsWith('.ts');
/** An idle reader thread ends after this long (its heap and module code go with it). */
const IDLE_MS = 60_000;
const idle: Reader[] = [];

/** The thread ids of the idle reader threads (tests). */
export const idleReaderThreads = (): number[] => idle.map((r) => r.worker.threadId);

async function acquire(maxHeapMb: number): Promise<Reader> {
  for (let r = idle.pop(); r; r = idle.pop()) {
    if (r.idleTimer) clearTimeout(r.idleTimer);
    if (!r.dead && r.maxHeapMb === maxHeapMb) {
      r.worker.ref();
      return r;
    }
    void r.worker.terminate();
  }
  // The SWC loader's native binding must stay loaded in this process: a worker that loaded it
  // first unloads it when it ends, and the next worker to load it takes the process down.
  if (SOURCE) await import('@swc/core');
  return new Reader(maxHeapMb);
}

function release(r: Reader): void {
  if (r.dead) return;
  r.worker.unref(); // an idle reader never keeps the process alive
  r.idleTimer = setTimeout(() => {
    const i = idle.indexOf(r);
    if (i >= 0) idle.splice(i, 1);
    void r.worker.terminate();
  }, IDLE_MS);
  r.idleTimer.unref();
  idle.push(r);
}

/**
 * `parsedRows` in a reader thread: the sheet is inflated and parsed (zlib, exceljs, saxes, the rows'
 * own checks) on another core while this thread plans and writes the previous batches, and the
 * parse's garbage lives and dies in that thread's heap, capped at `maxHeapMb`: a file whose parse
 * would need more (within the zip limits) fails its job with a clear message instead of taking the
 * platform's memory. At most `window` batches are parsed ahead. Reader threads are kept for the
 * next job (loading exceljs and the rules takes a second on a busy machine) and end after a minute
 * idle; a reader whose consumer stops early is ended, not reused.
 */
export async function* parsedRowsInWorker(buf: Buffer, format: SheetFormat, maxRows: number, refs: ImportRefs, opts: ReaderOptions = {}): AsyncGenerator<ParsedRow[]> {
  const reader = await acquire(opts.maxHeapMb ?? 160);
  let reusable = false;
  try {
    reader.worker.postMessage({ read: true, file: buf, format, maxRows, refs, window: opts.window ?? 4 } satisfies ReaderCommand);
    for (;;) {
      const m = await reader.next();
      if ('rows' in m) {
        reader.worker.postMessage({ more: true } satisfies ReaderCommand); // the next batch is parsed while this one is handled
        yield m.rows;
      } else if ('done' in m) {
        reusable = true;
        return;
      } else if ('failure' in m) {
        reusable = true;
        throw m.failure !== null ? new ImportFailure(m.failure) : new Error(`import reader: ${m.message}`);
      } else if ('crashed' in m) {
        if ((m.crashed as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new ImportFailure(READER_OUT_OF_MEMORY);
        throw m.crashed;
      } else throw new Error(`import reader exited (code ${m.exited}) before the end of the file`);
    }
  } finally {
    if (reusable) release(reader);
    else await reader.worker.terminate();
  }
}
