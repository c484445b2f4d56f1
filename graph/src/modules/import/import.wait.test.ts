import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../../platform/context.js';
import { createLivePubSub } from '../../platform/live/pubsub.js';
import { ImportService, type ImportJobView } from './import.service.js';

const JOB = '0190f5d2-7c1e-7000-8000-000000000001';
const OTHER = '0190f5d2-7c1e-7000-8000-000000000002';

const event = (type: string, jobId: string) =>
  ({
    id: crypto.randomUUID(),
    type,
    aggregateType: 'import_job',
    aggregateId: jobId,
    payload: { jobId },
  }) as unknown as EventEnvelope;

/** An ImportService whose job reads answer `state.status`, and the request context that waits. */
function setup() {
  const pubsub = createLivePubSub();
  const service = new ImportService();
  const state = { status: 'RUNNING' as ImportJobView['status'] };
  const get = vi
    .spyOn(service, 'get')
    .mockImplementation(async () => ({ id: JOB, status: state.status }) as ImportJobView);
  const ctx = { services: { pubsub } } as unknown as AppContext;
  return { pubsub, service, state, get, ctx };
}

describe('ImportService.wait (POST /api/computers/import without wait=0)', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("answers as soon as the job's import.finished arrives, not at the next look; other jobs' and progress events do not wake it", async () => {
    const { pubsub, service, state, get, ctx } = setup();
    const answered: { job?: ImportJobView } = {};
    void service.wait(ctx, JOB, 60_000).then((j) => (answered.job = j));
    await vi.advanceTimersByTimeAsync(0);
    expect(get).toHaveBeenCalledTimes(1);
    pubsub.publish('event', 'import_job', event('import.finished', OTHER));
    pubsub.publish('event', 'import_job', event('import.progressed', JOB));
    await vi.advanceTimersByTimeAsync(0);
    expect(get).toHaveBeenCalledTimes(1);
    state.status = 'SUCCEEDED';
    pubsub.publish('event', 'import_job', event('import.finished', JOB));
    await vi.advanceTimersByTimeAsync(0); // no time passes: woken by the event alone
    expect(answered.job?.status).toBe('SUCCEEDED');
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('without the live event it looks again every second, and answers the job as it is when the time is up', async () => {
    const { service, state, get, ctx } = setup();
    const answered: { job?: ImportJobView } = {};
    void service.wait(ctx, JOB, 2_500).then((j) => (answered.job = j));
    await vi.advanceTimersByTimeAsync(999);
    expect(get).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(get).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(answered.job?.status).toBe('RUNNING');
    expect(get).toHaveBeenCalledTimes(4); // 0, 1,000, 2,000 and at the limit (2,500)

    state.status = 'FAILED';
    const again: { job?: ImportJobView } = {};
    void service.wait(ctx, JOB, 60_000).then((j) => (again.job = j));
    await vi.advanceTimersByTimeAsync(0);
    expect(again.job?.status).toBe('FAILED');
  });
});
