import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kafkajsPatchState } from './kafkajs-patch.js';

/**
 * patches/kafkajs+2.2.4.patch (applied by `npm install`'s postinstall) removes per-message waste
 * from kafkajs's producer and fetch decoding. These tests hold the patched code to the Kafka wire
 * format (reference encodings written here, and kafkajs's own decoder for round trips), and fail
 * if the installed kafkajs is not the patched one.
 */
const require = createRequire(import.meta.url);
const { root } = kafkajsPatchState();
const kj = (p: string) => require(path.join(root, 'src', p));
const Encoder = kj('protocol/encoder.js');
const Decoder = kj('protocol/decoder.js');
const Long = kj('utils/long.js');
const { RecordBatch } = kj('protocol/recordBatch/v0/index.js');
const decodeRecordBatch = kj('protocol/recordBatch/v0/decoder.js');
const Record = kj('protocol/recordBatch/record/v0/index.js');
const groupMessagesPerPartition = kj('producer/groupMessagesPerPartition.js');

/** Kafka's varlong: zigzag over 64 bits, then 7 bits per byte, low group first. */
function referenceVarLong(v: bigint): number[] {
  let z = BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));
  const out: number[] = [];
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80);
    z >>= 7n;
  }
  out.push(Number(z));
  return out;
}

const VALUES: bigint[] = [
  0n,
  1n,
  -1n,
  63n,
  -64n,
  64n,
  -65n,
  8191n,
  -8192n,
  8192n,
  (1n << 27n) - 1n,
  1n << 27n,
  -(1n << 27n),
  -(1n << 27n) - 1n,
  (1n << 31n) - 1n,
  -(1n << 31n),
  1n << 31n,
  -(1n << 31n) - 1n,
  1n << 40n,
  -(1n << 40n),
  BigInt(Date.now()),
  -BigInt(Date.now()),
  (1n << 63n) - 1n,
  -(1n << 63n),
];

describe('patched kafkajs', () => {
  it('is installed: the postinstall applied patches/kafkajs+2.2.4.patch', () => {
    expect(kafkajsPatchState()).toMatchObject({ version: '2.2.4', unpatched: [] });
  });

  it('writes varints and varlongs as Kafka does (numbers and Longs), and reads them back', () => {
    for (const v of VALUES) {
      const asNumber = Number(v);
      const inputs = Number.isSafeInteger(asNumber) ? [asNumber, Long.fromValue(v)] : [Long.fromValue(v)];
      for (const input of inputs) {
        const bytes = new Encoder().writeVarLong(input).buffer;
        expect([...bytes]).toEqual(referenceVarLong(v));
        expect(Encoder.sizeOfVarLong(input)).toBe(bytes.length);
        expect(new Decoder(bytes).readVarLong().value).toBe(v);
      }
      if (v >= -(1n << 31n) && v < 1n << 31n) {
        const bytes = new Encoder().writeVarInt(asNumber).buffer;
        expect([...bytes]).toEqual(referenceVarLong(v));
        expect(Encoder.sizeOfVarInt(asNumber)).toBe(bytes.length);
        expect(new Decoder(bytes).readVarInt()).toBe(asNumber);
      }
    }
    // several values in one buffer: each read stops at its own last byte
    const enc = new Encoder();
    for (const v of VALUES) enc.writeVarLong(Long.fromValue(v)).writeInt8(7);
    const dec = new Decoder(enc.buffer);
    for (const v of VALUES) {
      expect(dec.readVarLong().value).toBe(v);
      expect(dec.readInt8()).toBe(7);
    }
  });

  it('encodes a record batch that decodes to the same records, offsets and timestamps', async () => {
    const firstTimestamp = Date.now() - 5_000;
    const input = Array.from({ length: 700 }, (_, i) => ({
      key: i % 9 === 0 ? null : Buffer.from(`agg-${i % 37}`),
      value: i % 50 === 0 ? null : Buffer.from(JSON.stringify({ i, text: 'イベント'.repeat(i % 40) })),
      headers: i % 3 === 0 ? { 'event-id': `e-${i}`, multi: [`a${i}`, `b${i}`] } : {},
      timestampDelta: i % 5 === 0 ? 0 : i * 7,
    }));
    const records = input.map((m, i) => Record({ ...m, offsetDelta: i }));
    const batch = await RecordBatch({
      records,
      firstTimestamp,
      maxTimestamp: firstTimestamp + 5_000,
      lastOffsetDelta: records.length - 1,
      firstOffset: Long.fromValue(1234567890123),
    });
    const decoded = await decodeRecordBatch(new Decoder(batch.buffer));
    expect(decoded.records).toHaveLength(input.length);
    decoded.records.forEach(
      (
        r: {
          offset: string;
          timestamp: string;
          key: Buffer | null;
          value: Buffer | null;
          headers: Record<string, unknown>;
        },
        i: number,
      ) => {
        expect(r.offset).toBe(String(1234567890123 + i));
        expect(r.timestamp).toBe(String(firstTimestamp + input[i]!.timestampDelta));
        expect(r.key?.toString() ?? null).toBe(input[i]!.key?.toString() ?? null);
        expect(r.value?.toString() ?? null).toBe(input[i]!.value?.toString() ?? null);
        const headers = Object.fromEntries(
          Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
        );
        expect(headers).toEqual(input[i]!.headers);
      },
    );
  });

  it('groups messages by partition keeping their order', () => {
    const messages = Array.from({ length: 2000 }, (_, i) => ({ key: `k${i % 13}`, value: String(i) }));
    const partitioner = ({ message }: { message: { key: string } }) => Number(message.key.slice(1)) % 4;
    const grouped = groupMessagesPerPartition({
      topic: 't',
      partitionMetadata: [0, 1, 2, 3].map((partitionId) => ({ partitionId })),
      messages,
      partitioner,
    });
    expect(Object.keys(grouped).sort()).toEqual(['0', '1', '2', '3']);
    for (const p of [0, 1, 2, 3]) expect(grouped[p]).toEqual(messages.filter((m) => partitioner({ message: m }) === p));
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});
  });
});
