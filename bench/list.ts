// GET /api/v1/uploads for a user with 1,000 items at 50 connections on the default PGlite: req/s and p99.
import autocannon from 'autocannon';
import { benchAccount } from './lib/bench-account.ts';
import { startChildServer } from './lib/child-server.ts';

const items = Number(process.env.BENCH_ITEMS ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
// A real 1×1 PNG, so every item goes through the same checks as a user's upload.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==',
  'base64',
);

async function uploadOne(url: string, token: string, index: number): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), `scan-${String(index).padStart(4, '0')}.png`);
  const res = await fetch(`${url}/api/v1/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload ${index}: ${res.status} ${await res.text()}`);
}

const app = await startChildServer('server/main.ts', 18793, '/api/v1/health');
try {
  const token = await benchAccount(app.url, app.dataDir);
  let next = 0;
  const workers = Array.from({ length: 8 }, async () => {
    while (next < items) await uploadOne(app.url, token, next++);
  });
  await Promise.all(workers);
  const url = `${app.url}/api/v1/uploads`;
  const options = { url, connections: 50, pipelining: 1, headers: { authorization: `Bearer ${token}` } };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const result = await autocannon({ ...options, duration: seconds });
  const body = await (await fetch(url, { headers: options.headers })).json();
  console.log(
    `list: ${(body as unknown[]).length} items, ${(result.throughput.average / 1024 / 1024).toFixed(1)} MB/s`,
  );
  console.log(
    `list: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms (target p99 <= 20 ms)`,
  );
} finally {
  await app.stop();
}
