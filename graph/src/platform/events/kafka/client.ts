import { Kafka, logLevel } from 'kafkajs';
import type { Logger } from 'pino';

/** From the config's KAFKA_* settings (events/index.ts kafkaSettings). */
export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  partitions: number;
  replicationFactor: number;
  sessionTimeoutMs?: number;
}

function pinoLogCreator(log: Logger) {
  return () =>
    ({ level, log: entry }: { level: number; log: { message: string; [k: string]: unknown } }) => {
      const { message, ...rest } = entry;
      // kafkajs logs every retriable protocol answer ("Response Metadata(…)") as an error; those are debug.
      if (level === logLevel.ERROR && !message.startsWith('Response ')) log.warn({ kafka: rest }, message);
      else log.debug({ kafka: rest }, message);
    };
}

/** Client tuning for short-lived operator commands (`workers status`, `dead-letters`): fail within seconds. */
export const QUICK_CLIENT = {
  connectionTimeout: 1500,
  requestTimeout: 5000,
  retry: { initialRetryTime: 100, maxRetryTime: 500, retries: 1 },
} as const;

export function createKafka(
  s: KafkaSettings,
  log: Logger,
  tuning: {
    connectionTimeout?: number;
    requestTimeout?: number;
    retry?: { initialRetryTime: number; maxRetryTime: number; retries: number };
  } = {},
): Kafka {
  return new Kafka({
    clientId: s.clientId,
    brokers: s.brokers,
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(log),
    connectionTimeout: tuning.connectionTimeout ?? 3000,
    ...(tuning.requestTimeout ? { requestTimeout: tuning.requestTimeout } : {}),
    retry: tuning.retry ?? { initialRetryTime: 200, maxRetryTime: 5000, retries: 8 },
  });
}
