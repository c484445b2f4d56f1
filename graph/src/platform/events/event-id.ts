import { randomFillSync } from 'node:crypto';

/**
 * Event ids are UUIDv7 (RFC 9562): a 48-bit Unix time in milliseconds, then a counter, then random
 * bits. They are unique like v4 ids (74 bits that are not the time, 32 of them fresh random bits per
 * id) but ordered by time, and within this process strictly increasing. Consumers key their
 * idempotency rows by (consumer, event id): with random v4 ids every insert landed on a random leaf
 * of that btree (page splits all over it, and after each checkpoint a full-page image in the WAL for
 * nearly every insert, and cache misses once the index outgrows memory); with time-ordered ids the
 * inserts append at the right edge, like a sequence.
 *
 * Layout: unix_ts_ms (48) | ver 7 (4) | counter high 12 (rand_a) | var 10 (2) | counter low 30 | random 32.
 * The 42-bit counter starts at a random value below 2^41 each new millisecond and counts up within
 * it (RFC 9562 §6.2 method 1); should the clock step back, the last millisecond is kept, so ids
 * never go backwards. A counter overflow (2^41 ids in one millisecond) borrows the next millisecond.
 */
const POOL = 4096;
const pool = Buffer.alloc(POOL);
let poolAt = POOL;

function random32(): number {
  if (poolAt + 4 > POOL) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const v = pool.readUInt32BE(poolAt);
  poolAt += 4;
  return v;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex = (v: number, bytes: number) => {
  let s = '';
  for (let k = bytes - 1; k >= 0; k--) s += HEX[(v >>> (k * 8)) & 0xff];
  return s;
};

let lastMs = -1;
/** The 42-bit counter as two parts (12 high bits, 30 low bits): exact integer arithmetic in 32-bit ops. */
let counterHigh = 0;
let counterLow = 0;

export function newEventId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    // Random start below 2^41: the top counter bit stays free for counting.
    counterHigh = random32() & 0x7ff;
    counterLow = random32() & 0x3fffffff;
  } else if (++counterLow > 0x3fffffff) {
    counterLow = 0;
    if (++counterHigh > 0xfff) {
      lastMs++;
      counterHigh = random32() & 0x7ff;
      counterLow = random32() & 0x3fffffff;
    }
  }
  const msHigh = Math.floor(lastMs / 0x10000); // top 32 bits of the 48-bit time
  const msLow = lastMs & 0xffff;
  const varAndLow = (0x80000000 | counterLow) >>> 0; // variant 10, then the 30 low counter bits
  return `${hex(msHigh, 4)}-${hex(msLow, 2)}-${hex(0x7000 | counterHigh, 2)}-${hex(varAndLow >>> 16, 2)}-${hex(varAndLow & 0xffff, 2)}${hex(random32(), 4)}`;
}
