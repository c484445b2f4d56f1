/**
 * Which Kafka the Kafka suites use:
 *  - KAFKA_BROKERS set (CI starts one with scripts/kafka/start.sh): that broker;
 *  - else, with Java on PATH: a broker of the suite's own, started from the cached jars;
 *  - else: the suite is skipped and says so — unless REQUIRE_KAFKA=1, which fails it.
 * Each suite uses its own topic prefix, so suites sharing a broker never see each other's events.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { hasJava, startKafka, waitForMetadata, type KafkaBroker } from '../../../../../scripts/kafka/kafka.js';
import type { KafkaSettings } from './client.js';

export const requireKafka = process.env.REQUIRE_KAFKA === '1' || process.env.REQUIRE_KAFKA === 'true';
const external = process.env.KAFKA_BROKERS?.trim() || '';
const java = external ? true : hasJava();

/** True when this suite can run against a real broker. */
export const kafkaAvailable = Boolean(external) || java;

export function kafkaSkipNotice(suite: string): void {
  if (kafkaAvailable) return;
  const msg = `[kafka] SKIPPED ${suite}: no KAFKA_BROKERS and no Java runtime to start a broker (set REQUIRE_KAFKA=1 to make this a failure)`;
  if (requireKafka) throw new Error(msg.replace('SKIPPED', 'REQUIRED but unavailable:'));
  console.warn(msg);
}

export interface TestKafka {
  brokers: string;
  /** Set when the suite started its own broker (it may stop/restart it). */
  own?: KafkaBroker;
  settings(partitions?: number): KafkaSettings;
  close(): Promise<void>;
}

/** A broker for one suite; `own: true` always starts a private one (fault tests restart it). */
export async function useTestKafka(opts: { own?: boolean } = {}): Promise<TestKafka> {
  let brokers = external;
  let own: KafkaBroker | undefined;
  let dir: string | undefined;
  if (!brokers || opts.own) {
    if (!java) throw new Error('no Java runtime to start a Kafka broker');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-kafka-'));
    own = await startKafka({ dir, heap: '384m' });
    brokers = own.brokers;
  } else {
    await waitForMetadata(brokers, 20_000);
  }
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  return {
    brokers,
    own,
    settings: (partitions = 4) => ({
      brokers: brokers.split(','),
      clientId: 'intranet-test',
      topicPrefix: prefix,
      partitions,
      replicationFactor: 1,
    }),
    close: async () => {
      await own?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
