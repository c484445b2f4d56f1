import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { within, type ReadyReport } from '../readiness.js';

/**
 * Prometheus metrics of the event backbone. One registry per process (not prom-client's global
 * one, so tests can run several). Lag and backlog are gauges filled at scrape time by probes.
 *
 * A process registers only what it does: `relay: false` (the worker pool) leaves out
 * outbox_relayed_total, `consumers: false` (the graph server with Kafka, `workers relay`) leaves
 * out the events_* consumer metrics and events_consumer_lag. The objects exist either way (so
 * code may count into them), they are just not exported. Each consumer's series start at 0 when
 * its runner is created (`registerConsumer`), so dashboards see them before the first event.
 */
type GroupProbe = () => Promise<Record<string, number>>;

/** A gauge labelled by group, filled at scrape time from probes (one failing probe leaves its groups out). */
function groupGauge(
  name: string,
  help: string,
  registers: Registry[],
  probes: () => readonly GroupProbe[],
): Gauge<'group'> {
  return new Gauge({
    name,
    help,
    labelNames: ['group'],
    registers,
    async collect() {
      this.reset();
      // Bounded: with the broker down a probe waits on its retries; a scrape answers within a second with the rest.
      const results = await Promise.all(probes().map((probe) => within(probe().catch(() => 'timeout' as const))));
      for (const r of results) if (r !== 'timeout') for (const [group, v] of Object.entries(r)) this.set({ group }, v);
    },
  });
}

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
  readonly liveLag: Gauge<'group'>;
  readonly brokerUp: Gauge;
  readonly handleSeconds: Histogram<'consumer'>;
  private readonly lagProbes: GroupProbe[] = [];
  private backlogProbe?: () => Promise<number>;
  private liveLagProbe?: GroupProbe;
  private brokerProbe?: () => Promise<unknown>;

  constructor(opts: { defaultMetrics?: boolean; relay?: boolean; consumers?: boolean } = {}) {
    const registers = [this.registry];
    const consumerRegisters = opts.consumers === false ? [] : registers;
    const relayRegisters = opts.relay === false ? [] : registers;
    const c = (name: string, help: string) =>
      new Counter({ name, help, labelNames: ['consumer'] as const, registers: consumerRegisters });
    this.processed = c('events_processed_total', 'Events whose effect a consumer committed');
    this.failures = c('events_failed_total', 'Failed attempts to handle an event');
    this.retries = c('events_retried_total', 'Retries scheduled after a failed attempt');
    this.deadLettered = c('events_dead_lettered_total', 'Events parked in the dead-letter topic/table');
    this.duplicates = c('events_duplicate_total', 'Redelivered events skipped by idempotency');
    this.relayed = new Counter({
      name: 'outbox_relayed_total',
      help: 'Outbox events published by this process relay',
      registers: relayRegisters,
    });
    this.handleSeconds = new Histogram({
      name: 'events_batch_seconds',
      help: 'Time to handle and commit one batch',
      labelNames: ['consumer'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: consumerRegisters,
    });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- prom-client calls collect() with the gauge as `this`
    const self = this;
    this.lag = groupGauge(
      'events_consumer_lag',
      'Events a consumer has not handled yet: per Kafka consumer group, high watermark minus committed offset; embedded, per consumer, queued outbox events of the types it handles',
      consumerRegisters,
      () => this.lagProbes,
    );
    this.backlog = new Gauge({
      name: 'outbox_backlog',
      help: 'Committed outbox events not yet published',
      registers,
      async collect() {
        if (!self.backlogProbe) return;
        const n = await within(self.backlogProbe().catch(() => 'timeout' as const));
        if (n !== 'timeout') this.set(n);
      },
    });
    this.liveLag = groupGauge(
      'events_live_feed_lag',
      "Kafka: events this graph instance's live feed (its own consumer group) has not yet handed to its subscriptions (high watermark minus the next offset to hand over, all partitions)",
      registers,
      () => (self.liveLagProbe ? [self.liveLagProbe] : []),
    );
    this.brokerUp = new Gauge({
      name: 'events_broker_up',
      help: 'Kafka: 1 when the broker answered this scrape within a second, 0 when not (absent in embedded mode)',
      registers,
      async collect() {
        if (!self.brokerProbe) return;
        const r = await within(
          self.brokerProbe().then(
            () => true,
            () => false,
          ),
        );
        this.set(r === true ? 1 : 0);
      },
    });
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** Starts a consumer's series at 0 (counters and the batch histogram). */
  registerConsumer(consumer: string): void {
    for (const counter of [this.processed, this.failures, this.retries, this.deadLettered, this.duplicates])
      counter.inc({ consumer }, 0);
    this.handleSeconds.zero({ consumer });
  }

  addLagProbe(probe: GroupProbe): void {
    this.lagProbes.push(probe);
  }

  setBacklogProbe(probe: () => Promise<number>): void {
    this.backlogProbe = probe;
  }

  /** Asks the broker something cheap; resolving is the broker up (events_broker_up). */
  setBrokerProbe(probe: () => Promise<unknown>): void {
    this.brokerProbe = probe;
  }

  setLiveLagProbe(probe: GroupProbe): void {
    this.liveLagProbe = probe;
  }
}

export interface MetricsServer {
  port: number;
  /** The address it is bound to. */
  host: string;
  url: string;
  close(): Promise<void>;
}

/**
 * /healthz and /metrics on their own port (workers, and `npm start` in embedded mode), bound to
 * `host` (METRICS_HOST; loopback unless given): `url` is where it answers.
 */
export async function serveMetrics(
  metrics: EventMetrics,
  opts: {
    port: number;
    host?: string;
    health: () => Promise<{ ok: boolean; [k: string]: unknown }>;
    ready?: () => Promise<ReadyReport>;
  },
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
      } else if (req.url === '/readyz' && opts.ready) {
        const r = await opts.ready();
        res.writeHead(r.ready ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: r.ready ? 'ready' : 'degraded', reasons: r.reasons, checks: r.checks }));
      } else {
        res.writeHead(404).end();
      }
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String((err as Error).message));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  // A wildcard address answers on loopback too; an IPv6 one is written in brackets.
  const host =
    address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '[::1]' : address.includes(':') ? `[${address}]` : address;
  return {
    port,
    host: address,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
