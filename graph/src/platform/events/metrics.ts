import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of the event backbone. One registry per process (not prom-client's global
 * one, so tests can run several). Lag and backlog are gauges filled at scrape time by probes.
 */
export class EventMetrics {
  readonly registry = new Registry();
  readonly processed: Counter<'consumer'>;
  readonly failures: Counter<'consumer'>;
  readonly retries: Counter<'consumer'>;
  readonly deadLettered: Counter<'consumer'>;
  readonly duplicates: Counter<'consumer'>;
  readonly relayed: Counter;
  readonly lag: Gauge<'group'>;
  readonly backlog: Gauge;
  readonly handleSeconds: Histogram<'consumer'>;
  private readonly lagProbes: (() => Promise<Record<string, number>>)[] = [];
  private backlogProbe?: () => Promise<number>;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.processed = new Counter({ name: 'events_processed_total', help: 'Events whose effect a consumer committed', labelNames: ['consumer'], registers });
    this.failures = new Counter({ name: 'events_failed_total', help: 'Failed attempts to handle an event', labelNames: ['consumer'], registers });
    this.retries = new Counter({ name: 'events_retried_total', help: 'Retries scheduled after a failed attempt', labelNames: ['consumer'], registers });
    this.deadLettered = new Counter({ name: 'events_dead_lettered_total', help: 'Events parked in the dead-letter topic/table', labelNames: ['consumer'], registers });
    this.duplicates = new Counter({ name: 'events_duplicate_total', help: 'Redelivered events skipped by idempotency', labelNames: ['consumer'], registers });
    this.relayed = new Counter({ name: 'outbox_relayed_total', help: 'Outbox events published by this process relay', registers });
    this.handleSeconds = new Histogram({
      name: 'events_batch_seconds',
      help: 'Time to handle and commit one batch',
      labelNames: ['consumer'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    const self = this;
    this.lag = new Gauge({
      name: 'events_consumer_lag',
      help: 'Messages not yet committed, per consumer group',
      labelNames: ['group'],
      registers,
      async collect() {
        this.reset();
        for (const probe of self.lagProbes) {
          try {
            for (const [group, v] of Object.entries(await probe())) this.set({ group }, v);
          } catch {
            /* broker unreachable: leave the gauge empty */
          }
        }
      },
    });
    this.backlog = new Gauge({
      name: 'outbox_backlog',
      help: 'Committed outbox events not yet published',
      registers,
      async collect() {
        if (!self.backlogProbe) return;
        try {
          this.set(await self.backlogProbe());
        } catch {
          /* database unreachable */
        }
      },
    });
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  addLagProbe(probe: () => Promise<Record<string, number>>): void {
    this.lagProbes.push(probe);
  }

  setBacklogProbe(probe: () => Promise<number>): void {
    this.backlogProbe = probe;
  }
}

export interface MetricsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/** /healthz and /metrics on their own port (workers, and `npm start` in embedded mode). */
export async function serveMetrics(
  metrics: EventMetrics,
  opts: { port: number; host?: string; health: () => Promise<{ ok: boolean; [k: string]: unknown }> },
): Promise<MetricsServer> {
  const server = http.createServer(async (req, res) => {
    try {
      if (req.url === '/metrics') {
        const body = await metrics.registry.metrics();
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(body);
      } else if (req.url === '/healthz') {
        const h = await opts.health();
        res.writeHead(h.ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify(h));
      } else {
        res.writeHead(404).end();
      }
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err as Error).message));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
