import type { z } from 'zod';
import { envelopeSchema, type EventContract, type EventEnvelope } from './envelope.js';
import { eventContracts } from './index.js';

/**
 * Versioned lookup: a contract is identified by (type, version). A consumer receiving an event
 * validates it against the contract of the version it was written with, so an old event in a
 * topic or a dead-letter table stays readable after the contract moves on.
 */
const all: readonly EventContract<string, z.ZodTypeAny>[] = eventContracts;
// By type, then by version: a consumer looks one up per event, and a `type@version` key string
// would be built and hashed each time.
const byType = new Map<string, Map<number, EventContract<string, z.ZodTypeAny>>>();
const latest = new Map<string, EventContract<string, z.ZodTypeAny>>();
for (const c of all) {
  let versions = byType.get(c.type);
  if (!versions) byType.set(c.type, (versions = new Map()));
  versions.set(c.version, c);
  if ((latest.get(c.type)?.version ?? 0) < c.version) latest.set(c.type, c);
}

export function contractFor(type: string, version?: number): EventContract<string, z.ZodTypeAny> | undefined {
  return version === undefined ? latest.get(type) : byType.get(type)?.get(version);
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

// zod's own uuid pattern (RFC 9562 versions and variant, nil, max), so the fast path accepts nothing zod refuses.
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
const DIGITS = /^\d+$/;
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

// The last occurredAt found canonical: the events of one transaction share it (recordMany stamps
// them all with one time), and parsing and re-formatting a date cost a consumer ~4 µs per event.
let lastCanonicalTime = '';

function isCanonicalTime(v: unknown): v is string {
  if (typeof v !== 'string' || v.length !== 24) return false;
  if (v === lastCanonicalTime) return true;
  const t = Date.parse(v);
  if (Number.isNaN(t) || new Date(t).toISOString() !== v) return false;
  lastCanonicalTime = v;
  return true;
}

/**
 * The envelope as every producer of this platform writes it (record() / the relay: canonical
 * toISOString time, integer version), checked without zod. Anything else, valid or not, takes the
 * zod path, which has the final word and the error messages; so this only makes the common case
 * cheap (the envelope check was most of a consumer's validation cost per event).
 */
function fastEnvelope(raw: unknown): EventEnvelope | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const r = raw as Record<string, unknown>;
  const { id, type, aggregateType, aggregateId, occurredAt, actorId, payload, version, position } = r;
  if (typeof id !== 'string' || !UUID.test(id)) return null;
  if (!nonEmpty(type) || !nonEmpty(aggregateType) || !nonEmpty(aggregateId) || !isCanonicalTime(occurredAt))
    return null;
  if (actorId !== null && !Number.isSafeInteger(actorId)) return null;
  if (
    typeof payload !== 'object' ||
    payload === null ||
    Array.isArray(payload) ||
    Object.getPrototypeOf(payload) !== Object.prototype
  )
    return null;
  if (!Number.isSafeInteger(version) || (version as number) < 1) return null;
  if (position !== undefined && (typeof position !== 'string' || !DIGITS.test(position))) return null;
  const env: EventEnvelope = {
    id,
    type,
    aggregateType,
    aggregateId,
    occurredAt,
    actorId: actorId as number | null,
    payload: payload as Record<string, unknown>,
    version: version as number,
  };
  if (position !== undefined) env.position = position;
  return env;
}

/** Parses an envelope from the wire and validates its payload against its (type, version) contract. */
export function parseEvent(raw: unknown): EventEnvelope {
  const fast = fastEnvelope(raw);
  const env = fast ? { success: true as const, data: fast } : envelopeSchema.safeParse(raw);
  if (!env.success)
    throw new InvalidEventError(
      `invalid event envelope: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const contract = contractFor(env.data.type, env.data.version);
  if (!contract) throw new InvalidEventError(`unknown event ${env.data.type} v${env.data.version}`);
  if (contract.aggregateType !== env.data.aggregateType) {
    throw new InvalidEventError(
      `event ${env.data.type} has aggregateType ${env.data.aggregateType}, expected ${contract.aggregateType}`,
    );
  }
  const payload = contract.payload.safeParse(env.data.payload);
  if (!payload.success) {
    throw new InvalidEventError(
      `invalid ${env.data.type} v${env.data.version} payload: ${payload.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  // The fast path's envelope is a fresh object already: only its payload is replaced (zod's copy).
  if (fast) {
    fast.payload = payload.data as Record<string, unknown>;
    return fast;
  }
  return { ...env.data, payload: payload.data as Record<string, unknown> };
}
