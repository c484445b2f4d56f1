import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import { returnHeld, type AnyHeld, type HeldData } from './device.held.js';
import { createRecord, updateRecord, type WriteSpec } from './device.writes.js';

type RecordReturned<E, D> = (
  tx: EntityManager,
  e: E,
  changed: string[],
  before: D,
  actorId: number,
  reason: 'returned',
) => Promise<void>;

/** The writes of a kind of held device (computers, smartphones): register, update, hand back at offboarding. */
export class HeldDeviceAdmin<E extends AnyHeld, D extends HeldData, V> {
  constructor(
    private readonly spec: WriteSpec<E, D, V>,
    private readonly recordReturned: RecordReturned<E, D>,
  ) {}

  create(ctx: AppContext, input: unknown): Promise<V> {
    return createRecord(ctx, this.spec, input);
  }

  update(ctx: AppContext, id: number, input: unknown): Promise<V> {
    return updateRecord(ctx, this.spec, id, input);
  }

  /** Hands back every device of this kind `employeeId` holds, inside the caller's transaction (offboarding). */
  returnFrom(tx: EntityManager, employeeId: number, actorId: number): Promise<number[]> {
    return returnHeld(tx, this.spec.entity, employeeId, actorId, this.recordReturned);
  }
}
