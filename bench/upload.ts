// A 1 GiB upload through POST /api/v1/uploads against bare node:http streaming the same bytes to disk,
// alternated; prints both MB/s, their ratio and the API server's peak RSS growth while uploading.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { benchAccount } from './lib/bench-account.ts';
import { startChildServer } from './lib/child-server.ts';
import { cpuSeconds } from './lib/process-cpu.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const sizeBytes = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const chunk = Buffer.alloc(1024 * 1024, 7);
// A NIfTI-1 header (magic at byte 344): a large volume is what a 1 GiB upload realistically is.
const niftiHeader = Buffer.alloc(352);
niftiHeader.writeInt32LE(348, 0);
niftiHeader.write('n+1\0', 344, 'latin1');

/** Sends one multipart body of `sizeBytes` (a NIfTI header, then voxels) and resolves with MB/s. */
function upload(url: string, token?: string): Promise<{ mbps: number; status: number; body: string }> {
  const boundary = '----lumenqc-bench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="volume.nii"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + sizeBytes + tail.length,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({ mbps: sizeBytes / 1024 / 1024 / seconds, status: res.statusCode ?? 0, body });
      });
    });
    let sent = 0;
    const write = () => {
      while (sent < sizeBytes) {
        let piece = sent === 0 ? Buffer.concat([niftiHeader, chunk.subarray(niftiHeader.length)]) : chunk;
        if (sent + piece.length > sizeBytes) piece = piece.subarray(0, sizeBytes - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(line?.[1] ?? 0) * 1024;
}

const app = await startChildServer('server/main.ts', 18791, '/api/v1/health');
const bare = await startChildServer('bench/lib/bare-upload-server.ts', 18792, '/');
const appRates: number[] = [];
const bareRates: number[] = [];
const appCpu: number[] = [];
const bareCpu: number[] = [];
/** Runs one upload and records the CPU seconds the receiving server spent on it. */
async function measured<T>(pid: number, cpu: number[], run: () => Promise<T>): Promise<T> {
  const before = cpuSeconds(pid);
  const result = await run();
  cpu.push(cpuSeconds(pid) - before);
  return result;
}
let peakGrowth = 0;
const rss = { baseline: 0 };
try {
  const token = await benchAccount(app.url, app.dataDir);
  const pid = app.process.pid!;
  const baseline = rssBytes(pid);
  rss.baseline = baseline;
  const sampler = setInterval(() => (peakGrowth = Math.max(peakGrowth, rssBytes(pid) - baseline)), 20);
  for (let i = 0; i < rounds; i++) {
    bareRates.push((await measured(bare.process.pid!, bareCpu, () => upload(`${bare.url}/`))).mbps);
    const result = await measured(pid, appCpu, () => upload(`${app.url}/api/v1/uploads`, token));
    if (result.status !== 201) throw new Error(`API upload answered ${result.status}: ${result.body}`);
    appRates.push(result.mbps);
    const stored = JSON.parse(result.body) as { stored_filename: string };
    await fetch(`${app.url}/api/v1/uploads/${stored.stored_filename}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
  }
  clearInterval(sampler);
} finally {
  await app.stop();
  await bare.stop();
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const gib = (sizeBytes / 1024 ** 3).toFixed(2);
console.log(
  `upload (${gib} GiB): API ${mean(appRates).toFixed(0)} MB/s, bare node:http ${mean(bareRates).toFixed(0)} MB/s`,
);
const each = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
console.log(`upload: per round, API ${each(appRates, 0)} MB/s, bare ${each(bareRates, 0)} MB/s`);
console.log(`upload: server CPU per upload, API ${each(appCpu, 2)} s, bare ${each(bareCpu, 2)} s`);
console.log(`upload: ratio ${(mean(appRates) / mean(bareRates)).toFixed(3)} (target >= 0.8)`);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `upload: API server peak RSS growth ${mib(peakGrowth)} MiB over ${mib(rss.baseline)} MiB at rest (target <= 64 MiB)`,
);
