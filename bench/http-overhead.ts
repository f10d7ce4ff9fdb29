// A routed, authenticated JSON route of the real app (GET /api/v1/workspaces: bearer session check, database
// read, schema serialisation) against bare node:http answering the same bytes, at 50 connections, alternated
// in paired rounds: each round's ratio compares two runs seconds apart, and the median ratio is reported, so
// load from elsewhere on the machine shifts both sides of a pair rather than the result.
// BENCH_DATABASE_URL runs the server on PostgreSQL. BENCH_JSON_ROUTE names another signed-in GET route
// (e.g. /api/v1/dashboard/metrics, which servers without workspaces had too, see BENCH_SERVER_DIR).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchAccount } from './lib/bench-account.ts';
import { startApiServer, startChildServer } from './lib/child-server.ts';
import { benchAgent, expectOk, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import { httpLoad, type LoadResult } from './lib/load.ts';
import { median } from './lib/median.ts';
import { pairedRounds } from './lib/paired-rounds.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const route = process.env.BENCH_JSON_ROUTE ?? '/api/v1/workspaces';

const app = await startApiServer(18787, databaseEnv);
let pairs: { app: LoadResult; bare: LoadResult }[];
try {
  const token = await benchAccount(app.url, app.dataDir);
  const headers = { authorization: `Bearer ${token}` };
  const url = `${app.url}${route}`;
  const agent = benchAgent(1);
  const answer = expectOk(await send(agent, url, { headers }), `GET ${route}`);
  await agent.close();
  const bodyFile = path.join(app.dataDir, 'workspaces.body');
  writeFileSync(bodyFile, answer.body);
  const bare = await startChildServer('bench/lib/bare-json-server.ts', 18788, '/', { BODY_FILE: bodyFile });
  try {
    const measure = (target: string, serverPid: number) =>
      httpLoad({ url: target, headers, connections: 50, seconds, serverPid });
    const appPid = app.process.pid!;
    const barePid = bare.process.pid!;
    await measure(url, appPid); // warm-up of both, so the JIT has compiled the hot paths
    await measure(bare.url, barePid);
    pairs = await pairedRounds(rounds, {
      bare: () => measure(bare.url, barePid),
      app: () => measure(url, appPid),
    });
  } finally {
    await bare.stop();
  }
} finally {
  await app.stop();
}
const of = (side: 'app' | 'bare', pick: (r: LoadResult) => number) => median(pairs.map((p) => pick(p[side])));
const line = (side: 'app' | 'bare') =>
  `${of(side, (r) => r.rate).toFixed(0)} req/s, p50 ${of(side, (r) => r.p50).toFixed(2)} ms, p99 ${of(side, (r) => r.p99).toFixed(2)} ms, server CPU ${of(side, (r) => r.serverCpuMs).toFixed(3)} ms per answer`;
console.log(`http-overhead (${databaseLabel}): GET ${route} signed in, 50 connections, medians of ${rounds} rounds`);
console.log(`  this server ${line('app')}`);
console.log(`  bare node:http with the same bytes ${line('bare')}`);
const ratio = median(pairs.map((p) => p.app.rate / p.bare.rate));
console.log(`  req/s ratio ${ratio.toFixed(3)} against bare node:http (median of paired rounds)`);
