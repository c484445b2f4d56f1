/**
 * The events bench's peers: the bare kafkajs floor (one producer → one consumer group on the same
 * broker, same message size, no database; timed on the second of two runs, then a paced latency run)
 * and the kafka + database floor (the same writers, then a bare relay and consumer with pg and
 * kafkajs alone: bench/events/db-floor.ts).
 */
import { performance } from 'node:perf_hooks';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { ensureTopics } from '@intranet/graph/events';
import { startDbFloor } from './db-floor.js';
import { CpuMeter, pct, sleep, type EventsGround, type Figures } from './infra.js';

export async function runFloors(g: EventsGround, cleanup: (() => Promise<void>)[]) {
  const { N, partitions, rate, paced, print, dbUrl, kPids, pgPids, settings, reset, waitEffects, bulkWrites } = g;
  // --- floor: bare kafkajs ------------------------------------------------------------------
  const floorSettings = settings('floor');
  const kafka = new Kafka({ clientId: 'bench-floor', brokers: floorSettings.brokers, logLevel: logLevel.NOTHING });
  await ensureTopics(kafka, floorSettings);
  const floorTopic = `${floorSettings.topicPrefix}probe`;
  const sample = JSON.stringify({
    id: '00000000-0000-4000-8000-000000000000',
    type: 'platform.probe',
    aggregateType: 'probe',
    aggregateId: 'agg-0-00',
    occurredAt: new Date().toISOString(),
    actorId: null,
    payload: { seq: 12345, sentAtMs: Date.now() },
    version: 1,
  });
  const producer = kafka.producer({
    allowAutoTopicCreation: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  cleanup.push(() => producer.disconnect());
  let received = 0;
  const floorLat: number[] = [];
  let measuring = false;
  const consumer = kafka.consumer({
    groupId: `${floorSettings.topicPrefix}g`,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 100,
    maxBytesPerPartition: 4 << 20,
  });
  await consumer.connect();
  cleanup.push(() => consumer.disconnect());
  await consumer.subscribe({ topics: [floorTopic], fromBeginning: true });
  let joined!: () => void;
  const joinedP = new Promise<void>((r) => (joined = r));
  consumer.on(consumer.events.GROUP_JOIN, () => joined());
  await consumer.run({
    partitionsConsumedConcurrently: partitions,
    eachBatch: async ({ batch }) => {
      const now = Date.now();
      if (measuring) for (const m of batch.messages) floorLat.push(now - Number(m.headers!.t!.toString()));
      received += batch.messages.length;
    },
  });
  await joinedP;
  const sendFloor = async (count: number, chunk: number, stamp: boolean) => {
    for (let i = 0; i < count; i += chunk) {
      const n = Math.min(chunk, count - i);
      const t = String(Date.now());
      await producer.sendBatch({
        acks: -1,
        topicMessages: [
          {
            topic: floorTopic,
            messages: Array.from({ length: n }, (_, k) => ({
              key: `agg-${(i + k) % 100}`,
              value: sample,
              ...(stamp ? { headers: { t } } : {}),
            })),
          },
        ],
      });
    }
  };
  // A warm-up run first, untimed: on a broker just started (and in this process) the first N
  // events run while the JIT compiles the fetch and produce paths, at about half the warm rate;
  // the pipeline below runs on the warmed broker, and warms its own processes the same way.
  const cw0 = performance.now();
  await sendFloor(N, 2000, false);
  while (received < N) await sleep(5);
  const coldFloor = N / ((performance.now() - cw0) / 1000);
  received = 0;
  const floorMeter = new CpuMeter(() => ({ kafka: kPids() }));
  const f0 = performance.now();
  await sendFloor(N, 2000, false);
  while (received < N) await sleep(5);
  const floorSec = (performance.now() - f0) / 1000;
  const floorCpu = floorMeter.stop(N);
  // paced floor latency
  measuring = true;
  const base = received;
  const pacedTotal = Math.round(rate * paced);
  const pt0 = performance.now();
  for (let i = 0; i < pacedTotal; i++) {
    const wait = pt0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    await sendFloor(1, 1, true);
  }
  while (received < base + pacedTotal) await sleep(5);
  floorLat.sort((a, b) => a - b);
  const floor: Figures = {
    eventsPerSec: N / floorSec,
    p50: pct(floorLat, 0.5),
    p99: pct(floorLat, 0.99),
    cpu: floorCpu,
  };
  print(
    `floor: ${floor.eventsPerSec.toFixed(0)} events/s (the warm-up run before it: ${coldFloor.toFixed(0)}), paced latency p50 ${floor.p50} ms p99 ${floor.p99} ms`,
  );

  // --- kafka + database floor: the same writers, a bare relay and consumer (bench/events/db-floor.ts)
  const dbFloor = await (async (): Promise<Figures> => {
    await reset();
    const s = settings('dbfloor');
    await ensureTopics(kafka, s);
    const f = await startDbFloor({
      dbUrl: dbUrl!,
      kafka,
      topic: `${s.topicPrefix}probe`,
      groupId: `${s.topicPrefix}g`,
      partitions,
    });
    try {
      const once = async (n: number) => {
        const t0 = performance.now();
        const relayed = f.relay(n);
        await bulkWrites(n);
        await relayed;
        return ((await waitEffects(n)) - t0) / 1000;
      };
      await once(N / 2); // warm-up, untimed
      await reset();
      const meter = new CpuMeter(() => ({ pg: pgPids(), kafka: kPids() }));
      const sec = await once(N);
      const cpu = meter.stop(N);
      await reset();
      return { eventsPerSec: N / sec, p50: NaN, p99: NaN, cpu };
    } finally {
      await f.stop();
    }
  })();
  print(`kafka + database floor: ${dbFloor.eventsPerSec.toFixed(0)} events/s`);
  return { kafka, coldFloor, floor, dbFloor };
}
