import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { apiRequest, operationsOf } from './api-requests.ts';
import type { FuzzFixtures } from './fuzz-fixtures.ts';

/** What a fuzz run saw: how many requests, how many answers per status class (overall and per arm), the failures. */
export interface FuzzReport {
  requests: number;
  byClass: Record<string, number>;
  /** Answers per status class of the hostile arm and of the valid arm. */
  byArm: Record<string, Record<string, number>>;
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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sends `runs` generated requests (fast-check, from `seed`) to `app` over every operation of its OpenAPI
 * document, half hostile and half valid, naming the live `fixtures`. After every request that changed something
 * (a 2xx to a method that is not read-only: a delete, a sign-out, a role change) the fixtures are refreshed, so
 * later requests still find the images, sessions and roles they name.
 */
export async function fuzzApp(
  app: FastifyInstance,
  fixtures: FuzzFixtures,
  runs: number,
  seed = 22,
): Promise<FuzzReport> {
  const document = (await app.inject({ url: '/api/v1/openapi.json' })).json();
  const planned = fc.sample(apiRequest(operationsOf(document)), { numRuns: runs, seed });
  const report: FuzzReport = { requests: 0, byClass: {}, byArm: {}, failures: [] };
  for (const plan of planned) {
    const request = plan.build(fixtures);
    const res = await app.inject(request);
    report.requests++;
    const statusClass = `${Math.floor(res.statusCode / 100)}xx`;
    report.byClass[statusClass] = (report.byClass[statusClass] ?? 0) + 1;
    const arm = (report.byArm[plan.arm] ??= {});
    arm[statusClass] = (arm[statusClass] ?? 0) + 1;
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
    if (res.statusCode < 300 && !SAFE_METHODS.has(String(request.method))) await fixtures.refresh(url.split('?')[0]);
  }
  return report;
}
