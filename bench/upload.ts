// A 1 GiB upload through POST /api/v1/uploads against bare node:http streaming the same bytes to disk,
// in rotating order after one unmeasured upload to each; prints the MB/s, the median ratios and the API
// server's peak RSS growth while uploading. The API answers 201 once the bytes are on disk (fsync), so
// the like-for-like baseline fsyncs too; the baseline that answers from the page cache is printed beside it.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { benchAccount } from './lib/bench-account.ts';
import { startApiServer, startChildServer } from './lib/child-server.ts';
import { benchAgent, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { median } from './lib/median.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const sizeBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const chunk = Buffer.alloc(1024 * 1024, 7);
const agent = benchAgent(1);
// A NIfTI-1 header (magic at byte 344): a large volume is what a 1 GiB upload realistically is.
const niftiHeader = Buffer.alloc(352);
niftiHeader.writeInt32LE(348, 0);
niftiHeader.write('n+1\0', 344, 'latin1');

const boundary = '----lumenqc-bench';
const head = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="volume.nii"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n',
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

/** The multipart body of one upload: its head, a NIfTI header, then 1 MiB pieces of voxels, then its tail. */
async function* multipart(): AsyncGenerator<Uint8Array> {
  yield head;
  for (let sent = 0; sent < sizeBytes;) {
    let piece = sent === 0 ? Buffer.concat([niftiHeader, chunk.subarray(niftiHeader.length)]) : chunk;
    if (sent + piece.length > sizeBytes) piece = piece.subarray(0, sizeBytes - sent);
    sent += piece.length;
    yield piece;
  }
  yield tail;
}

/** Sends one multipart body of `sizeBytes` (a NIfTI header, then voxels) and resolves with MB/s. */
async function upload(url: string, token?: string): Promise<{ mbps: number; status: number; body: string }> {
  const started = process.hrtime.bigint();
  const answer = await send(agent, url, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + sizeBytes + tail.length),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: Readable.from(multipart()),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { mbps: sizeBytes / 1024 / 1024 / seconds, status: answer.status, body: answer.body.toString() };
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) * 1024;
}

const app = await startApiServer(18791, databaseEnv);
const bare = await startChildServer('bench/lib/bare-upload-server.ts', 18792, '/');
const durable = await startChildServer('bench/lib/bare-upload-server.ts', 18793, '/', { BARE_DURABLE: '1' });
type Side = 'api' | 'bare' | 'durable';
const rates: Record<Side, number[]> = { api: [], bare: [], durable: [] };
const cpu: Record<Side, number[]> = { api: [], bare: [], durable: [] };
let peakGrowth = 0;
const rss = { baseline: 0 };
try {
  const token = await benchAccount(app.url, app.dataDir);
  const pid = app.process.pid!;
  /** One upload to `side`; resolves with MB/s and the CPU seconds its server spent. */
  const uploadTo = async (side: Side) => {
    const server = { api: app, bare, durable }[side];
    const before = cpuSeconds(server.process.pid!);
    const result = await upload(
      side === 'api' ? `${app.url}/api/v1/uploads` : `${server.url}/`,
      side === 'api' ? token : undefined,
    );
    const seconds = cpuSeconds(server.process.pid!) - before;
    if (result.status !== 201) throw new Error(`${side} upload answered ${result.status}: ${result.body}`);
    if (side === 'api') {
      const stored = JSON.parse(result.body) as { stored_filename: string };
      await send(agent, `${app.url}/api/v1/uploads/${stored.stored_filename}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
    }
    return { mbps: result.mbps, seconds };
  };
  const baseline = rssBytes(pid);
  rss.baseline = baseline;
  const sampler = setInterval(() => (peakGrowth = Math.max(peakGrowth, rssBytes(pid) - baseline)), 20);
  // The first 1 GiB a process writes is slower (the page cache grows into free memory): its rate is not
  // counted, its memory is.
  for (const side of ['bare', 'durable', 'api'] as const) await uploadTo(side);
  const order: Side[] = ['api', 'bare', 'durable'];
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < order.length; k++) {
      const side = order[(i + k) % order.length]!;
      const { mbps, seconds } = await uploadTo(side);
      rates[side].push(mbps);
      cpu[side].push(seconds);
    }
  }
  clearInterval(sampler);
} finally {
  await app.stop();
  await bare.stop();
  await durable.stop();
  await agent.close();
}
const gib = (sizeBytes / 1024 ** 3).toFixed(2);
const each = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
console.log(
  `upload (${gib} GiB, ${databaseLabel}, medians of ${rounds}): API ${median(rates.api).toFixed(0)} MB/s, bare node:http ${median(rates.bare).toFixed(0)} MB/s, bare with fsync ${median(rates.durable).toFixed(0)} MB/s`,
);
console.log(
  `upload: per round, API ${each(rates.api, 0)} MB/s, bare ${each(rates.bare, 0)} MB/s, bare with fsync ${each(rates.durable, 0)} MB/s`,
);
console.log(
  `upload: server CPU per upload, API ${each(cpu.api, 2)} s, bare ${each(cpu.bare, 2)} s, bare with fsync ${each(cpu.durable, 2)} s`,
);
const ratio = (baseline: Side) => median(rates.api.map((api, i) => api / rates[baseline][i]!)).toFixed(3);
console.log(`upload: ratio ${ratio('durable')} against bare with fsync, like for like (target >= 0.8)`);
console.log(`upload: ratio ${ratio('bare')} against bare answering before its bytes reach the disk`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `upload: API server peak RSS growth ${mib(peakGrowth)} MiB over ${mib(rss.baseline)} MiB at rest (target <= 64 MiB)`,
);
