import { z } from 'zod';
import { defineEvent } from './envelope.js';

/**
 * The platform's own end-to-end probe: recorded by benchmarks, fault tests and operators to check
 * that the outbox → transport → consumer path works and how fast. `seq` is the probe's position in
 * its aggregate (order checks); `poison` makes the probe consumer fail (dead-letter checks).
 */
export const platformProbe = defineEvent(
  'platform.probe',
  'probe',
  1,
  z.object({
    seq: z.number().int().min(0),
    sentAtMs: z.number().optional(),
    poison: z.boolean().optional(),
    note: z.string().max(200).optional(),
  }),
);
