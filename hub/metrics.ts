/**
 * Prometheus-style /metrics (issue 9): requests and latencies, queue depths, device states, the
 * change-log position and memory — for whoever watches the store: a user holding Metrics, or the
 * monitoring system's POS_HUB_METRICS_TOKEN (CONTRACT §9).
 */
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { durableCommits, type Db } from '../db/client.js';
import { lastSeq } from './engine/change-log.js';
import { readFiscalStatus } from './core/fiscal-status.js';
import { fiscalDeviceList } from './resources/fiscaldevices/store.js';
import { endpointRows, openJobCounts } from './printing/store.js';
import { openTicketCount } from './resources/tickets/store.js';
import { ERR } from './http/api-docs.js';
import { routes } from './http/route.js';

const BUCKETS_MS = [1, 2, 5, 10, 20, 50, 100, 250, 500, 1000, 2500, 5000];

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly buckets = new Array<number>(BUCKETS_MS.length + 1).fill(0);
  private sumMs = 0;
  private count = 0;

  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const key = `${req.method}|${Math.floor(res.statusCode / 100)}xx`;
        this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
        const i = BUCKETS_MS.findIndex((b) => ms <= b);
        this.buckets[i === -1 ? BUCKETS_MS.length : i]++;
        this.sumMs += ms;
        this.count++;
      });
      next();
    };
  }

  render(db: Db): string {
    const lines: string[] = [];
    const metric = (name: string, type: string, help: string) => lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    metric('poshub_http_requests_total', 'counter', 'HTTP requests answered, by method and status class.');
    for (const [key, n] of this.requests) {
      const [method, status] = key.split('|');
      lines.push(`poshub_http_requests_total{method="${method}",status="${status}"} ${n}`);
    }
    metric('poshub_http_request_duration_seconds', 'histogram', 'Time to answer an HTTP request.');
    let cumulative = 0;
    BUCKETS_MS.forEach((b, i) => {
      cumulative += this.buckets[i];
      lines.push(`poshub_http_request_duration_seconds_bucket{le="${b / 1000}"} ${cumulative}`);
    });
    lines.push(`poshub_http_request_duration_seconds_bucket{le="+Inf"} ${this.count}`);
    lines.push(`poshub_http_request_duration_seconds_sum ${this.sumMs / 1000}`, `poshub_http_request_duration_seconds_count ${this.count}`);

    metric('poshub_print_queue_depth', 'gauge', 'Print jobs not yet printed nor given up, per printer.');
    const depth = openJobCounts(db);
    for (const { name } of endpointRows(db)) {
      lines.push(`poshub_print_queue_depth{printer="${escape(name)}"} ${depth.get(name) ?? 0}`);
    }
    metric('poshub_fiscal_device_online', 'gauge', 'Fiscal devices: 1 online, 0 offline, -1 not known yet.');
    for (const { name } of fiscalDeviceList(db)) {
      const online = readFiscalStatus(db, name).online;
      lines.push(`poshub_fiscal_device_online{device="${escape(name)}"} ${online === null ? -1 : Number(online)}`);
    }
    metric('poshub_open_tickets', 'gauge', 'Tickets opened and not yet closed.');
    lines.push(`poshub_open_tickets ${openTicketCount(db)}`);
    const durable = durableCommits(db);
    if (durable) {
      metric('poshub_db_commits_total', 'counter', 'COMMITs of batches of writes (writes that arrive together share one).');
      lines.push(`poshub_db_commits_total ${durable.commits}`);
      metric('poshub_db_syncs_total', 'counter', 'fdatasyncs of the WAL that made commits durable (commits that land during one share the next).');
      lines.push(`poshub_db_syncs_total ${durable.syncs}`);
      metric('poshub_db_sync_seconds_total', 'counter', 'Time spent in those fdatasyncs.');
      lines.push(`poshub_db_sync_seconds_total ${(durable.syncMs / 1000).toFixed(6)}`);
    }
    metric('poshub_change_log_seq', 'gauge', 'The newest change-log position.');
    lines.push(`poshub_change_log_seq ${lastSeq(db)}`);
    metric('process_resident_memory_bytes', 'gauge', 'Resident memory of the hub process.');
    const memory = process.memoryUsage();
    lines.push(`process_resident_memory_bytes ${memory.rss}`);
    // Which part grows, when resident memory does: the JS heap, or memory outside it (SQLite's
    // page cache, buffers).
    metric('nodejs_heap_size_used_bytes', 'gauge', 'JavaScript heap in use.');
    lines.push(`nodejs_heap_size_used_bytes ${memory.heapUsed}`);
    metric('nodejs_heap_size_total_bytes', 'gauge', 'JavaScript heap reserved.');
    lines.push(`nodejs_heap_size_total_bytes ${memory.heapTotal}`);
    metric('nodejs_external_memory_bytes', 'gauge', 'Memory held outside the JavaScript heap by its objects (buffers).');
    lines.push(`nodejs_external_memory_bytes ${memory.external}`);
    return `${lines.join('\n')}\n`;
  }
}

function escape(label: string): string {
  return label.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** `authorize` throws (401/403) unless the request may read the metrics. */
export const metricsRoutes = routes<{ metrics: Metrics; db: Db; authorize: (req: Request) => void }>((route) => [
  route({
    method: 'get',
    path: '/metrics',
    operationId: 'system.metrics',
    tags: ['System'],
    summary: 'Prometheus metrics',
    description:
      'Requests and latencies, queue depths, device states, database commits and syncs, the change-log position, memory; ' +
      'in the Prometheus text format. Needs the bearer POS_HUB_METRICS_TOKEN (a monitoring system) or a user holding Metrics.',
    rights: ['Metrics'],
    responses: { 200: { description: 'The metrics.', schema: z.string(), contentType: 'text/plain' } },
    errors: [ERR.unauthenticated(), ERR.missingRight('A user without Metrics.')],
    handler:
      ({ metrics, db, authorize }) =>
      (_input, req, res) => {
        authorize(req);
        res.type('text/plain; version=0.0.4').send(metrics.render(db));
      },
  }),
]);
