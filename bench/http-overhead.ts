// GET /api/v1/health of the real app against bare node:http returning the same JSON, alternated.
import autocannon from 'autocannon';
import { startChildServer } from './lib/child-server.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function measure(url: string): Promise<number> {
  const result = await autocannon({ url, connections: 50, pipelining: 1, duration: seconds });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const app = await startChildServer('server/main.ts', 18787, '/api/v1/health');
const bare = await startChildServer('bench/lib/bare-health-server.ts', 18788, '/');
const appRates: number[] = [];
const bareRates: number[] = [];
try {
  await measure(`${app.url}/api/v1/health`); // warm-up
  await measure(bare.url);
  for (let i = 0; i < rounds; i++) {
    bareRates.push(await measure(bare.url));
    appRates.push(await measure(`${app.url}/api/v1/health`));
  }
} finally {
  await app.stop();
  await bare.stop();
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const appRate = mean(appRates);
const bareRate = mean(bareRates);
console.log(`http-overhead: app ${appRate.toFixed(0)} req/s, bare node:http ${bareRate.toFixed(0)} req/s`);
console.log(`http-overhead: ratio ${(appRate / bareRate).toFixed(3)} (target >= 0.85)`);
