// GET /api/v1/health of the real app against bare node:http returning the same JSON, alternated in
// paired rounds: each round's ratio compares two runs seconds apart, and the median ratio is reported,
// so load from elsewhere on the machine shifts both sides of a pair rather than the result. The app's
// answer goes through its router, hooks and serializer like every other route.
import autocannon from 'autocannon';
import { startChildServer } from './lib/child-server.ts';
import { median } from './lib/median.ts';
import { pairedRounds } from './lib/paired-rounds.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 50, pipelining: 1, duration: seconds });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const app = await startChildServer('server/main.ts', 18787, '/api/v1/health');
const bare = await startChildServer('bench/lib/bare-json-server.ts', 18788, '/');
const appUrl = `${app.url}/api/v1/health`;
let pairs: { app: number; bare: number }[];
try {
  await measure(appUrl); // warm-up of both, so the JIT has compiled the hot paths
  await measure(bare.url);
  pairs = await pairedRounds(rounds, { bare: () => measure(bare.url), app: () => measure(appUrl) });
} finally {
  await app.stop();
  await bare.stop();
}
const appRate = median(pairs.map((p) => p.app));
const bareRate = median(pairs.map((p) => p.bare));
const ratio = median(pairs.map((p) => p.app / p.bare));
console.log(
  `http-overhead: app ${appRate.toFixed(0)} req/s, bare node:http ${bareRate.toFixed(0)} req/s (medians of ${rounds} rounds)`,
);
console.log(`http-overhead: ratio ${ratio.toFixed(3)} (median of paired rounds; target >= 0.85)`);
