import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** A line of patches/kafkajs+2.2.4.patch in each file it changes (`present`: the line is added, or else removed). */
const MARKERS: { file: string; text: string; present: boolean }[] = [
  { file: 'producer/groupMessagesPerPartition.js', text: '[...current, message]', present: false },
  { file: 'protocol/encoder.js', text: 'Buffer.allocUnsafe(Encoder.nextPowerOfTwo(initialSize))', present: true },
  { file: 'protocol/decoder.js', text: 'Fast path (patch)', present: true },
  { file: 'protocol/recordBatch/record/v0/decoder.js', text: "baseOf(batchContext, 'firstOffset')", present: true },
  { file: 'protocol/requests/produce/v3/request.js', text: '...message,', present: false },
];

/** The installed kafkajs: its directory, version, and the patched files that are not (empty when patched). */
export function kafkajsPatchState(): { root: string; version: string; unpatched: string[] } {
  const root = path.dirname(require.resolve('kafkajs/package.json'));
  const version = (require('kafkajs/package.json') as { version: string }).version;
  const unpatched = MARKERS.filter(
    (m) => fs.readFileSync(path.join(root, 'src', m.file), 'utf8').includes(m.text) !== m.present,
  ).map((m) => m.file);
  return { root, version, unpatched };
}
