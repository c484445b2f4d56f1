import { randomBytes } from 'node:crypto';
import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { KeyHashPartitioner, murmur2 } from './partitioner.js';

const meta = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    partitionErrorCode: 0,
    partitionId: i,
    leader: i % 3 === 2 ? -1 : 1,
    replicas: [1],
    isr: [1],
    offlineReplicas: [],
  }));

describe('KeyHashPartitioner', () => {
  it("puts every key on the partition kafkajs's DefaultPartitioner (the Java client's murmur2) picks", () => {
    const ours = KeyHashPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const keys: (string | Buffer)[] = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'abcde',
      'agg-0-17',
      'lat42',
      '社員-123',
      'é',
      '🙂🙂🙂',
    ];
    for (let i = 0; i < 3000; i++)
      keys.push(`agg-${i % 4}-${i}`, randomBytes(i % 37).toString('base64'), randomBytes(i % 23));
    for (const n of [1, 3, 4, 16, 50]) {
      const partitionMetadata = meta(n);
      for (const key of keys) {
        const message = { key, value: 'v' };
        // twice: the second answer comes from the remembered hash
        for (let k = 0; k < 2; k++)
          expect(ours({ topic: 't', partitionMetadata, message })).toBe(
            theirs({ topic: 't', partitionMetadata, message }),
          );
      }
    }
  });

  it('keeps an explicit partition, and spreads keyless messages as kafkajs does', () => {
    const ours = KeyHashPartitioner();
    const partitionMetadata = meta(4);
    expect(ours({ topic: 't', partitionMetadata, message: { key: 'x', value: 'v', partition: 3 } })).toBe(3);
    const seen = new Set(
      Array.from({ length: 20 }, () => ours({ topic: 't', partitionMetadata, message: { value: 'v' } })),
    );
    expect([...seen].every((p) => partitionMetadata.find((m) => m.partitionId === p)!.leader >= 0)).toBe(true);
    expect(seen.size).toBeGreaterThan(1);
  });

  it("murmur2 matches Kafka's reference values", () => {
    // From the Java client's UtilsTest.testMurmur2.
    const cases: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ];
    for (const [s, h] of cases) expect(murmur2(Buffer.from(s))).toBe(h);
  });
});
