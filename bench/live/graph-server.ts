/**
 * Bench child (bench/live.bench.ts): the real graph server (startGraph: Express, Apollo, graphql-ws,
 * type-graphql, MikroORM, the outbox relay feeding live subscriptions) on an ephemeral port.
 * Its stats answer also counts the open WebSocket connections.
 */
import { loadConfig, createLogger } from '@intranet/graph';
import { startGraph } from '@intranet/graph/app';
import { runChild } from '../lib/child.js';

let sockets = 0;
await runChild(
  async () => {
    const config = loadConfig(process.env);
    const log = createLogger(config.LOG_LEVEL);
    const graph = await startGraph(config, log, config.DATABASE_URL!, { port: 0 });
    graph.server.http.on('upgrade', (_req, socket) => {
      sockets++;
      socket.once('close', () => sockets--);
    });
    return { info: { url: graph.server.url, pid: process.pid }, stop: () => graph.stop() };
  },
  { stats: () => ({ sockets }) },
);
