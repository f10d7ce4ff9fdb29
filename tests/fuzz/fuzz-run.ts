import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { apiRequest, operationsOf } from './api-requests.ts';

/** What a fuzz run saw: how many requests, how many answers per status class, and the failures. */
export interface FuzzReport {
  requests: number;
  byClass: Record<string, number>;
  /** Requests answered 5xx, or answered under /api/ with an error that is not JSON `{"detail": …}`. */
  failures: { request: InjectOptions; status: number; body: string }[];
}

/** Whether an API error answer is the JSON `{"detail": "…"}` every error must be. */
function isDetail(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    return typeof parsed.detail === 'string';
  } catch {
    return false;
  }
}

/**
 * Sends `runs` generated requests (fast-check, from `seed`) to `app` over every operation of its OpenAPI
 * document, signed in with one of `tokens` or not, with `storedNames` among the path parameters.
 */
export async function fuzzApp(
  app: FastifyInstance,
  context: { tokens: string[]; storedNames: string[] },
  runs: number,
  seed = 22,
): Promise<FuzzReport> {
  const document = (await app.inject({ url: '/api/v1/openapi.json' })).json();
  const requests = fc.sample(apiRequest(operationsOf(document), context), { numRuns: runs, seed });
  const report: FuzzReport = { requests: 0, byClass: {}, failures: [] };
  for (const request of requests) {
    const res = await app.inject(request);
    report.requests++;
    const statusClass = `${Math.floor(res.statusCode / 100)}xx`;
    report.byClass[statusClass] = (report.byClass[statusClass] ?? 0) + 1;
    const url = typeof request.url === 'string' ? request.url : '';
    const badError =
      res.statusCode >= 400 && url.startsWith('/api/') && request.method !== 'HEAD' && !isDetail(res.body);
    if (res.statusCode >= 500 || badError) {
      report.failures.push({
        request: { method: request.method, url: url.slice(0, 200), headers: request.headers },
        status: res.statusCode,
        body: res.body.slice(0, 300),
      });
    }
  }
  return report;
}
