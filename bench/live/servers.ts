/**
 * What every live bench starts (live.bench.ts, likes.bench.ts): an embedded PostgreSQL in a temp
 * dir with the demo company and N signed-in employees (setup.ts), the real graph server, the bare
 * `ws` server and the load generators as child processes, each allowed the sockets it will hold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@intranet/graph';
import { serverEnv } from '../lib/database.js';
import { onCleanup, REPO_ROOT, startChild, type BenchChild } from '../lib/procs.js';
import { agent, ensureFdLimit, prepareLiveDatabase, type Viewer } from './setup.js';

export interface LiveServers {
  dbUrl: string;
  pgData: string;
  viewers: Viewer[];
  graph: BenchChild;
  bare: BenchChild;
  gens: BenchChild[];
  graphUrl: string;
  bareUrl: string;
}

export async function startLiveServers(o: {
  name: string;
  sessions: number;
  generators: number;
  pool: number;
  subscriptions: number;
  log: (l: string) => void;
}): Promise<LiveServers> {
  onCleanup('http agent', () => agent.destroy());
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `intranet-bench-${o.name}-`));
  fs.chmodSync(tmp, 0o755);
  onCleanup(
    'temp dir',
    () => fs.rmSync(tmp, { recursive: true, force: true }),
    () => fs.rmSync(tmp, { recursive: true, force: true }),
  );
  const pgData = path.join(tmp, 'pg');
  const db = await startEmbeddedPostgres(pgData, 'intranet');
  onCleanup('embedded PostgreSQL', () => db.stop());
  const viewers = await prepareLiveDatabase(db.url, tmp, o.sessions, o.log);

  const env = serverEnv({ url: db.url, tmp }, { DB_POOL_MAX: String(o.pool) });
  const [graph, bare, ...gens] = await Promise.all([
    startChild('graph server', path.join(REPO_ROOT, 'bench/live/graph-server.ts'), env),
    startChild('bare ws server', path.join(REPO_ROOT, 'bench/live/bare-server.ts'), env),
    ...Array.from({ length: o.generators }, (_, g) =>
      startChild(`load generator ${g + 1}`, path.join(REPO_ROOT, 'bench/live/load-gen.ts'), env),
    ),
  ]);
  const need = o.subscriptions + 1024; // the server holds every socket; a generator its share
  ensureFdLimit([graph.proc.pid!, bare.proc.pid!, ...gens.map((g) => g.proc.pid!)], need, o.log);
  return {
    dbUrl: db.url,
    pgData,
    viewers,
    graph,
    bare,
    gens,
    graphUrl: String(graph.ready.url),
    bareUrl: String(bare.ready.url),
  };
}
