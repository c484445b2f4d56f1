/**
 * Bench child: the real platform graph server (startGraph: Apollo + graphql-jit + type-graphql +
 * MikroORM), against DATABASE_URL, on an ephemeral port. BENCH_DIAG=1 additionally times the
 * session lookup, the whole HTTP request and the service methods named in BENCH_TIME
 * (comma-separated `path.to.service.method=label`, e.g. `employees.list=employeesList`).
 */
import { performance } from 'node:perf_hooks';
import { loadConfig, createLogger } from '@intranet/graph';
import { startGraph } from '@intranet/graph/app';
import { runChild } from './child.js';
import { Timings } from './timers.js';

const timings = new Timings();
const diag = process.env.BENCH_DIAG === '1';

await runChild(
  async () => {
    const config = loadConfig(process.env);
    const log = createLogger(config.LOG_LEVEL);
    const graph = await startGraph(config, log, config.DATABASE_URL!, { port: 0 });
    if (diag) {
      timings.wrap(graph.services.sessions, 'resolve', 'sessionResolve');
      for (const spec of (process.env.BENCH_TIME ?? '').split(',').filter(Boolean)) {
        const [where, label] = spec.split('=');
        const keys = where.split('.');
        const method = keys.pop()!;
        const owner = keys.reduce<Record<string, unknown>>(
          (o, k) => o[k] as Record<string, unknown>,
          graph.services as unknown as Record<string, unknown>,
        );
        if (typeof owner?.[method] !== 'function') throw new Error(`BENCH_TIME: services.${where} is not a method`);
        timings.wrap(owner, method as never, label ?? where);
      }
      graph.server.http.prependListener('request', (req, res) => {
        const t0 = performance.now();
        res.once('finish', () => timings.add(`http ${req.url}`, performance.now() - t0));
      });
    }
    return { info: { url: graph.server.url, pid: process.pid }, stop: () => graph.stop() };
  },
  { stats: () => (diag ? { timings: timings.summary() } : {}) },
);
