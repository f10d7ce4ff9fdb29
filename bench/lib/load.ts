// The load generator of the HTTP benchmarks: autocannon, closed loop (`connections` keep-alive sockets, each
// sending its next request as soon as its answer is complete). Latencies are taken from autocannon's
// per-answer event rather than its histogram, which keeps whole milliseconds, so sub-millisecond routes
// still get a p50 and p99 worth comparing.
import autocannon from 'autocannon';
import { cpuSeconds } from './process-cpu.ts';

/** What to send, how hard and for how long. */
export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Run for this many seconds, or until `amount` answers when that is given instead. */
  seconds?: number;
  amount?: number;
  /** Called once per connection with its index, to give each its own headers or body. */
  setupConnection?: (client: autocannon.Client, index: number) => void;
  /** The server's process: its CPU time per answer is reported, a figure the machine's other load moves less. */
  serverPid?: number;
}

/** Figures of one run; latencies in milliseconds, from sending a request to the end of its answer. */
export interface LoadResult {
  requests: number;
  /** Answers per second over the run. */
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Bytes received, header blocks included. */
  bytes: number;
  /** Every answer's latency, sorted. */
  latencies: number[];
  /** CPU milliseconds the server spent per answer, when its pid was given. */
  serverCpuMs: number;
}

/** The value below which `fraction` of the sorted `values` lie (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** Runs the load and reports it; rejects when any answer was not 2xx or any request failed. */
export function httpLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let bytes = 0;
  let connection = 0;
  const cpuBefore = options.serverPid ? cpuSeconds(options.serverPid) : 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        connections: options.connections,
        pipelining: 1,
        ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
        ...(options.setupConnection
          ? { setupClient: (client: autocannon.Client) => options.setupConnection!(client, connection++) }
          : {}),
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx || result.errors || result.timeouts) {
          return reject(
            new Error(
              `${options.url}: ${result.non2xx} answers not 2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
            ),
          );
        }
        latencies.sort((a, b) => a - b);
        resolve({
          requests: latencies.length,
          rate: latencies.length / result.duration,
          p50: percentile(latencies, 0.5),
          p95: percentile(latencies, 0.95),
          p99: percentile(latencies, 0.99),
          max: latencies.at(-1) ?? Number.NaN,
          bytes,
          latencies,
          serverCpuMs: options.serverPid
            ? ((cpuSeconds(options.serverPid) - cpuBefore) * 1000) / latencies.length
            : Number.NaN,
        });
      },
    );
    instance.on('response', (_client, statusCode, resBytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
      bytes += resBytes;
    });
  });
}
