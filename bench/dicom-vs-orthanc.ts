// bench/dicom-vs-orthanc: 500 DICOM slices uploaded by 5 parallel clients to Orthanc (Debian's package) and
// to this server, then every preview rendered by each. Prints instances/s, previews/s and the ratios
// (target ≥ 1.0: this server faster than Orthanc). Skips, saying so, when Orthanc is not installed.
import { writeDicomFile, type FixtureElement } from '../tests/fixtures/dicom-writer.ts';
import { multipartBody } from '../tests/fixtures/multipart-body.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../tests/fixtures/phantoms.ts';
import { benchAccount } from './lib/bench-account.ts';
import { startApiServer } from './lib/child-server.ts';
import { benchAgent, expectOk, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import { orthancExecutable, startOrthanc } from './lib/orthanc.ts';
import { cpuSeconds } from './lib/process-cpu.ts';
import { median } from './lib/median.ts';
import { pairedRounds } from './lib/paired-rounds.ts';

const SLICES = 500;
// Uploaded to each server before the clock starts, as the other benchmarks warm up: what is measured is
// the steady state, not a just-started JavaScript engine compiling its hot paths. This server's CPU per
// upload, by 250-upload window after start, in four runs: 3.3-4.4 ms, 2.1-2.6, 1.4-2.2, 1.5-2.1, then
// 1.1-2.2 from the 1,000th on; 200 warm-up uploads left the measured 500 on the slope.
const WARMUP_SLICES = Number(process.env.BENCH_WARMUP ?? 1500);
// Previews keep the 200 they always warmed up on: the slope above was measured on uploads.
const WARMUP_PREVIEWS = 200;
const CLIENTS = 5;
const SIZE = 256;

const executable = orthancExecutable();
if (!executable) {
  console.log('SKIPPED: Orthanc is not installed (apt-get install -y orthanc); nothing was measured.');
  process.exit(0);
}

/** One slice of a 256×256 16-bit MR series, each with its own SOP Instance UID. */
function slice(index: number, pixels: Uint16Array): Uint8Array {
  const elements: FixtureElement[] = [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.4' },
    { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.9.7734.3.${index + 1}` },
    { tag: '00080060', vr: 'CS', value: 'MR' },
    { tag: '00100010', vr: 'PN', value: 'BENCH^PATIENT' },
    { tag: '00100020', vr: 'LO', value: 'BENCH-1' },
    { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.9.7734.1' },
    { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.9.7734.2' },
    { tag: '00200013', vr: 'IS', value: String(index + 1) },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [SIZE] },
    { tag: '00280011', vr: 'US', value: [SIZE] },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [16] },
    { tag: '00280102', vr: 'US', value: [15] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '7FE00010', vr: 'OW', value: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength) },
  ];
  return writeDicomFile({ syntax: 'explicit-le', elements });
}

// Both servers get the same lean client, one kept-alive connection per parallel client (see lib/client.ts).
const agent = benchAgent(CLIENTS);

/** Rate of one phase, and the CPU milliseconds per job of the server and of this client. */
interface Phase {
  rate: number;
  serverMs: number;
  clientMs: number;
}

/** Runs `count` jobs over `CLIENTS` parallel workers against the server of process `pid`. */
async function parallel(pid: number, count: number, job: (index: number) => Promise<void>): Promise<Phase> {
  let next = 0;
  const start = performance.now();
  const serverBefore = cpuSeconds(pid);
  const clientBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < count) await job(next++);
    }),
  );
  const client = process.cpuUsage(clientBefore);
  return {
    rate: count / ((performance.now() - start) / 1000),
    serverMs: ((cpuSeconds(pid) - serverBefore) * 1000) / count,
    clientMs: (client.user + client.system) / 1000 / count,
  };
}

/*
 * Every side's files are removed at the end, not after its round. ext4 will not hand out an inode freed
 * in the last minute or more, and scans past each one on every file it creates: with a thousand files
 * of the previous round just deleted, creating one took the next server about a millisecond of kernel
 * time, more than storing its bytes, and which side paid for whose deletions depended on the order.
 */
const leftovers: (() => void)[] = [];

const base = cleanPhantom({ size: SIZE, inner: 800, background: 0 });
// Every slice its own instance, the warm-up ones after the measured ones and sharing their pixels.
const pixels = Array.from({ length: SLICES }, (_, i) => toUint16(addRicianNoise(base, 20, i + 1)));
const files = Array.from({ length: SLICES + WARMUP_SLICES }, (_, i) => slice(i, pixels[i % SLICES]!));
console.log(
  `${SLICES} slices of ${SIZE}×${SIZE} 16-bit, ${CLIENTS} parallel clients, after ${WARMUP_SLICES} warm-up uploads and ${WARMUP_PREVIEWS} previews; Orthanc: ${executable}`,
);

/** The calls a round makes of one server: store slice `i` (resolving to its id there), fetch one preview. */
interface Side {
  pid: number;
  upload(i: number): Promise<string>;
  preview(id: string): Promise<void>;
}

/** Warms `side` up on the warm-up slices, then measures storing every slice and fetching every preview. */
async function measure(side: Side): Promise<{ upload: Phase; preview: Phase }> {
  const warmIds: string[] = [];
  await parallel(side.pid, WARMUP_SLICES, async (k) => void (warmIds[k] = await side.upload(SLICES + k)));
  await parallel(side.pid, WARMUP_PREVIEWS, (k) => side.preview(warmIds[k]!));
  const ids: string[] = [];
  const upload = await parallel(side.pid, SLICES, async (i) => void (ids[i] = await side.upload(i)));
  const preview = await parallel(side.pid, SLICES, (i) => side.preview(ids[i]!));
  return { upload, preview };
}

/** A round against a fresh Orthanc. */
async function runOrthanc(): Promise<{ upload: Phase; preview: Phase }> {
  const orthanc = await startOrthanc(executable!, 8942);
  try {
    return await measure({
      pid: orthanc.pid,
      async upload(i) {
        const answer = await send(agent, `${orthanc.url}/instances`, {
          method: 'POST',
          headers: { 'content-type': 'application/dicom' },
          body: files[i]!,
        });
        return (JSON.parse(expectOk(answer, 'Orthanc upload').body.toString()) as { ID: string }).ID;
      },
      async preview(id) {
        expectOk(await send(agent, `${orthanc.url}/instances/${id}/preview`), 'Orthanc preview');
      },
    });
  } finally {
    await orthanc.stop({ keepData: true });
    leftovers.push(() => orthanc.removeData());
  }
}

// BENCH_DATABASE_URL runs this server on PostgreSQL, as deployed at scale, instead of the embedded PGlite.
console.log(`this server's database: ${databaseLabel}`);
// Multipart bodies made before the clock starts, so the client spends what it spends on Orthanc: one buffer sent.
const bodies = files.map((file, i) =>
  multipartBody([
    { field: 'file', filename: `slice-${i}.dcm`, content: Buffer.from(file), contentType: 'application/dicom' },
  ]),
);

/** A round against a fresh instance of this server (its own data folder, a new account). */
async function runOurs(): Promise<{ upload: Phase; preview: Phase }> {
  const server = await startApiServer(8943, databaseEnv);
  try {
    const token = await benchAccount(server.url, server.dataDir);
    const auth = { authorization: `Bearer ${token}` };
    return await measure({
      pid: server.process.pid!,
      async upload(i) {
        const answer = await send(agent, `${server.url}/api/v1/uploads`, {
          method: 'POST',
          headers: { ...auth, ...bodies[i]!.headers },
          body: bodies[i]!.payload,
        });
        return (JSON.parse(expectOk(answer, 'upload').body.toString()) as { stored_filename: string }).stored_filename;
      },
      async preview(name) {
        expectOk(await send(agent, `${server.url}/api/v1/uploads/${name}/preview.png`, { headers: auth }), 'preview');
      },
    });
  } finally {
    await server.stop({ keepData: true });
    leftovers.push(() => server.removeData());
  }
}

// Medians of paired rounds, Orthanc first in the first round.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const pairs = await pairedRounds(rounds, { theirs: runOrthanc, ours: runOurs }).finally(async () => {
  leftovers.forEach((remove) => remove());
  await agent.close();
});

const row = (label: string, kind: 'upload' | 'preview') => {
  const ours = median(pairs.map((p) => p.ours[kind].rate));
  const theirs = median(pairs.map((p) => p.theirs[kind].rate));
  const ratio = median(pairs.map((p) => p.ours[kind].rate / p.theirs[kind].rate));
  console.log(
    `${label.padEnd(10)} this server ${ours.toFixed(1).padStart(7)}/s   Orthanc ${theirs.toFixed(1).padStart(7)}/s   ratio ${ratio.toFixed(2)} ${ratio >= 1 ? '(target ≥ 1.0: met)' : '(target ≥ 1.0: MISSED)'}`,
  );
  const cpu = (side: 'ours' | 'theirs', of: 'serverMs' | 'clientMs') =>
    median(pairs.map((p) => p[side][kind][of])).toFixed(2);
  console.log(
    `${''.padEnd(10)} CPU ms per request: this server ${cpu('ours', 'serverMs')} (client ${cpu('ours', 'clientMs')}), Orthanc ${cpu('theirs', 'serverMs')} (client ${cpu('theirs', 'clientMs')})`,
  );
};
pairs.forEach((p, k) =>
  console.log(
    `round ${k + 1}: instances ${p.ours.upload.rate.toFixed(1)}/s vs ${p.theirs.upload.rate.toFixed(1)}/s (CPU ${p.ours.upload.serverMs.toFixed(2)} vs ${p.theirs.upload.serverMs.toFixed(2)} ms), previews ${p.ours.preview.rate.toFixed(1)}/s vs ${p.theirs.preview.rate.toFixed(1)}/s (this server vs Orthanc)`,
  ),
);
console.log(`medians of ${rounds} paired rounds`);
row('instances', 'upload');
row('previews', 'preview');
console.log('(this server de-identifies every DICOM on arrival; Orthanc stores it as sent)');
