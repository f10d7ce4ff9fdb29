// GET /api/v1/uploads for a user with 1,000 items at 50 connections on the default PGlite: req/s and p99,
// alternated with bare node:http answering the same bytes, which shows what this machine allows right now
// (the target is absolute, so a slow spell of the machine moves it; the baseline says by how much).
// Measured as the dashboard asks (a browser's Accept-Encoding), then for a client that accepts no compression.
// The load comes from bench/lib/http-load.ts, not autocannon, whose own collections stalled it long enough
// to set the p99 of both servers (see there).
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { benchAccount } from './lib/bench-account.ts';
import { startChildServer } from './lib/child-server.ts';
import { httpLoad, type LoadResult } from './lib/http-load.ts';
import { median } from './lib/median.ts';
import { pairedRounds } from './lib/paired-rounds.ts';

const items = Number(process.env.BENCH_ITEMS ?? 1000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** The bytes of an answer as sent, still compressed if they were (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ body: Buffer; encoding?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
    }).on('error', reject);
  });
}

const clients = [
  // What Chrome sends with every fetch() of the dashboard.
  { label: 'as the dashboard asks (Accept-Encoding: gzip, deflate, br, zstd)', accept: 'gzip, deflate, br, zstd' },
  { label: 'no compression accepted', accept: 'identity' },
];

const app = await startChildServer('server/main.ts', 18793, '/api/v1/health');
try {
  const token = await benchAccount(app.url, app.dataDir);
  let next = 0;
  const workers = Array.from({ length: 8 }, async () => {
    while (next < items) await uploadOne(app.url, token, next++);
  });
  await Promise.all(workers);
  const url = `${app.url}/api/v1/uploads`;
  for (const [index, client] of clients.entries()) {
    const headers = { authorization: `Bearer ${token}`, 'accept-encoding': client.accept };
    // The exact answer, saved for the baseline to send as it is.
    const answer = await rawGet(url, headers);
    const bodyFile = path.join(app.dataDir, `list-${index}.body`);
    writeFileSync(bodyFile, answer.body);
    const bare = await startChildServer('bench/lib/bare-json-server.ts', 18794, '/', {
      BODY_FILE: bodyFile,
      ...(answer.encoding ? { CONTENT_ENCODING: answer.encoding } : {}),
    });
    try {
      const run = async (target: string, duration: number) => {
        const result = await httpLoad({ url: target, connections: 50, headers, seconds: duration });
        // Each answer must be the list as saved, plus its header block: anything else was not this route.
        const perAnswer = result.bytes / result.requests - answer.body.length;
        if (perAnswer < 0 || perAnswer > 2048) throw new Error(`${target} answered ${perAnswer} bytes off the list`);
        return result;
      };
      await run(url, 2); // warm-up
      await run(bare.url, 2);
      const bareUrl = bare.url;
      const results = await pairedRounds(rounds, {
        app: () => run(url, seconds / rounds),
        bare: () => run(bareUrl, seconds / rounds),
      });
      const of = (side: 'app' | 'bare', pick: (r: LoadResult) => number) => median(results.map((r) => pick(r[side])));
      const target = index === 0 ? ' (target p99 <= 20 ms)' : '';
      console.log(`list, ${client.label}:`);
      console.log(
        `  ${items} items, ${(answer.body.length / 1024).toFixed(0)} KiB per answer (${answer.encoding ?? 'uncompressed'}), medians of ${rounds} alternated rounds`,
      );
      console.log(
        `  this server ${of('app', (r) => r.rate).toFixed(0)} req/s, p50 ${of('app', (r) => r.p50).toFixed(1)} ms, p99 ${of('app', (r) => r.p99).toFixed(1)} ms${target}`,
      );
      console.log(
        `  bare node:http with the same bytes ${of('bare', (r) => r.rate).toFixed(0)} req/s, p50 ${of('bare', (r) => r.p50).toFixed(1)} ms, p99 ${of('bare', (r) => r.p99).toFixed(1)} ms`,
      );
      const ratio = median(results.map((r) => r.app.rate / r.bare.rate));
      console.log(`  req/s ratio ${ratio.toFixed(3)} against bare node:http (median of paired rounds)`);
    } finally {
      await bare.stop();
    }
  }
} finally {
  await app.stop();
}
