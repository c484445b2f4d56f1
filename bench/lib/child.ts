/**
 * The child side of bench/lib/procs.ts: reports readiness, answers stats requests (CPU time,
 * event-loop utilisation since the last reset), and shuts down on SIGTERM or when the parent dies.
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

type Handler = (msg: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>;

export async function runChild(
  start: () => Promise<{ info: Record<string, unknown>; stop: () => Promise<void> }>,
  handlers: Record<string, Handler> = {},
): Promise<void> {
  let stopFn: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const hard = setTimeout(() => process.exit(code), 5000);
    hard.unref();
    try {
      await stopFn?.();
    } finally {
      process.exit(code);
    }
  };
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  process.on('disconnect', () => void shutdown(0));

  let profiler: Session | undefined;
  let cpu = process.cpuUsage();
  let elu: EventLoopUtilization = performance.eventLoopUtilization();
  process.on('message', async (m: Record<string, unknown>) => {
    const reply = (body: Record<string, unknown>) => process.send?.({ ...body, id: m.id, type: m.type });
    try {
      if (m.type === 'stats') {
        const c = process.cpuUsage(cpu);
        const e = performance.eventLoopUtilization(elu);
        if (m.reset !== false) {
          cpu = process.cpuUsage();
          elu = performance.eventLoopUtilization();
        }
        const extra = handlers.stats ? await handlers.stats(m) : undefined;
        reply({
          cpuUserMs: c.user / 1000,
          cpuSystemMs: c.system / 1000,
          elu: e.utilization,
          rssMb: process.memoryUsage().rss / 1048576,
          extra,
        });
      } else if (m.type === 'profileStart') {
        // CPU profile of exactly the measured window (not start-up), via the inspector.
        profiler = new Session();
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: Number(m.intervalUs ?? 1000) });
        await profiler.post('Profiler.start');
        reply({});
      } else if (m.type === 'profileStop') {
        const { profile } = await profiler!.post('Profiler.stop');
        fs.writeFileSync(String(m.file), JSON.stringify(profile));
        profiler!.disconnect();
        reply({ file: m.file });
      } else if (typeof m.type === 'string' && handlers[m.type]) {
        reply(await handlers[m.type](m));
      }
    } catch (err) {
      reply({ error: (err as Error).message });
    }
  });

  try {
    const { info, stop } = await start();
    stopFn = stop;
    process.send?.({ type: 'ready', ...info });
  } catch (err) {
    process.send?.({ type: 'failed', error: (err as Error).stack ?? String(err) });
    await shutdown(1);
  }
}
