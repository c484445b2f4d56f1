import type { z } from 'zod';
import { envelopeSchema, type EventContract, type EventEnvelope } from './envelope.js';
import { eventContracts } from './index.js';

/**
 * Versioned lookup: a contract is identified by (type, version). A consumer receiving an event
 * validates it against the contract of the version it was written with, so an old event in a
 * topic or a dead-letter table stays readable after the contract moves on.
 */
const all: readonly EventContract<string, z.ZodTypeAny>[] = eventContracts;
const byKey = new Map(all.map((c) => [`${c.type}@${c.version}`, c]));
const latest = new Map<string, EventContract<string, z.ZodTypeAny>>();
for (const c of all) if ((latest.get(c.type)?.version ?? 0) < c.version) latest.set(c.type, c);

export function contractFor(type: string, version?: number): EventContract<string, z.ZodTypeAny> | undefined {
  return version === undefined ? latest.get(type) : byKey.get(`${type}@${version}`);
}

/** Every aggregate type that has events, i.e. every Kafka topic the platform needs. */
export function aggregateTypes(): string[] {
  return [...new Set(all.map((c) => c.aggregateType))].sort();
}

export class InvalidEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

/** Parses an envelope from the wire and validates its payload against its (type, version) contract. */
export function parseEvent(raw: unknown): EventEnvelope {
  const env = envelopeSchema.safeParse(raw);
  if (!env.success) throw new InvalidEventError(`invalid event envelope: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const contract = contractFor(env.data.type, env.data.version);
  if (!contract) throw new InvalidEventError(`unknown event ${env.data.type} v${env.data.version}`);
  if (contract.aggregateType !== env.data.aggregateType) {
    throw new InvalidEventError(`event ${env.data.type} has aggregateType ${env.data.aggregateType}, expected ${contract.aggregateType}`);
  }
  const payload = contract.payload.safeParse(env.data.payload);
  if (!payload.success) {
    throw new InvalidEventError(`invalid ${env.data.type} v${env.data.version} payload: ${payload.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return { ...env.data, payload: payload.data as Record<string, unknown> };
}
