/**
 * Bench child: the real platform graph server (startGraph: Apollo + graphql-jit + type-graphql +
 * MikroORM), against DATABASE_URL, on an ephemeral port. BENCH_DIAG=1 additionally times the
 * session lookup, the directory service call and the whole HTTP request (for the breakdown).
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../graph/src/config/config.js';
import { createLogger } from '../../graph/src/platform/logger.js';
import { startGraph } from '../../graph/src/platform/bootstrap.js';
import { runChild } from '../lib/child.js';
import { Timings } from '../lib/timers.js';

const timings = new Timings();
const diag = process.env.BENCH_DIAG === '1';

await runChild(
  async () => {
    const config = loadConfig(process.env);
    const log = createLogger(config.LOG_LEVEL);
    const graph = await startGraph(config, log, config.DATABASE_URL!, { port: 0 });
    if (diag) {
      timings.wrap(graph.services.sessions, 'resolve', 'sessionResolve');
      timings.wrap(graph.services.employees, 'list', 'employeesList');
      graph.server.http.prependListener('request', (req, res) => {
        const t0 = performance.now();
        res.once('finish', () => timings.add(`http ${req.url}`, performance.now() - t0));
      });
    }
    return { info: { url: graph.server.url, pid: process.pid }, stop: () => graph.stop() };
  },
  { stats: () => (diag ? { timings: timings.summary() } : {}) },
);
