import { Counter, Histogram, Registry } from 'prom-client';

/** Operator metrics of the Google sync (registered on the process's event metrics registry). */
export class GoogleMetrics {
  readonly requests: Counter<'op' | 'outcome'>;
  readonly retries: Counter<'op' | 'reason'>;
  readonly seconds: Histogram<'op'>;
  readonly pushes: Counter<'action' | 'outcome'>;
  readonly pulls: Counter<'kind' | 'outcome'>;
  readonly conflicts: Counter<'winner'>;

  constructor(registry: Registry = new Registry()) {
    const registers = [registry];
    const get = <T>(name: string, make: () => T): T => (registry.getSingleMetric(name) as T) ?? make();
    this.requests = get(
      'google_api_requests_total',
      () =>
        new Counter({
          name: 'google_api_requests_total',
          help: 'Calendar API attempts by operation and outcome (ok or HTTP status)',
          labelNames: ['op', 'outcome'],
          registers,
        }),
    );
    this.retries = get(
      'google_api_retries_total',
      () =>
        new Counter({
          name: 'google_api_retries_total',
          help: 'Calendar API retries after rate limits, 429 and 5xx',
          labelNames: ['op', 'reason'],
          registers,
        }),
    );
    this.seconds = get(
      'google_api_request_seconds',
      () =>
        new Histogram({
          name: 'google_api_request_seconds',
          help: 'Calendar API attempt duration',
          labelNames: ['op'],
          buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
          registers,
        }),
    );
    this.pushes = get(
      'google_sync_push_total',
      () =>
        new Counter({
          name: 'google_sync_push_total',
          help: 'Entries written to Google (insert, patch, delete) by outcome',
          labelNames: ['action', 'outcome'],
          registers,
        }),
    );
    this.pulls = get(
      'google_sync_pull_total',
      () =>
        new Counter({
          name: 'google_sync_pull_total',
          help: 'Pulls from Google (incremental, full, month) by outcome',
          labelNames: ['kind', 'outcome'],
          registers,
        }),
    );
    this.conflicts = get(
      'google_sync_conflicts_total',
      () =>
        new Counter({
          name: 'google_sync_conflicts_total',
          help: 'Edits on both sides resolved by the newer-wins rule',
          labelNames: ['winner'],
          registers,
        }),
    );
  }
}
