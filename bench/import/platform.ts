/**
 * Bench child: the real platform as `npm start` composes it (bin/start.ts) minus the launcher's
 * embedded database and metrics port: the graph server (startGraph) with the import worker's
 * consumer in-process (embedded transport) and its pending-job scheduler (startBackgroundJobs),
 * against DATABASE_URL, on an ephemeral port.
 */
import { loadConfig, createLogger } from '@intranet/graph';
import { startGraph } from '@intranet/graph/app';
import { selectConsumers, startBackgroundJobs } from '../../workers/src/registry.js';
import { runChild } from '../lib/child.js';

await runChild(async () => {
  const config = loadConfig(process.env);
  const log = createLogger(config.LOG_LEVEL);
  const consumers = selectConsumers(['import']);
  const graph = await startGraph(config, log, config.DATABASE_URL!, { consumers, port: 0 });
  const background = startBackgroundJobs(consumers, graph.orm, config);
  return {
    info: { url: graph.server.url, pid: process.pid },
    stop: async () => {
      await background.stop();
      await graph.stop();
    },
  };
});
