// `npm run bench -- bombs`: every attack of the ingest security review (issue 35) against a real listening API
// server, a fresh process and data folder for each, with `/api/v1/health` asked every 20 ms and the server's
// RSS read from /proc at the same pace. Prints per attack the longest health answer (target < 100 ms), the RSS
// peak over the baseline before it (target < 256 MB) and the bytes stored per byte sent, then a quota race:
// 64 concurrent uploads at the edge of WORKSPACE_QUOTA_BYTES, 10 rounds, accepted bytes never over the quota.
// BOMBS_ONLY=<words> runs the attacks whose label holds one of them; BOMBS_RSS_CAP_MB (default 8192) stops a
// server that grows past it, so an attack cannot take a shared machine's memory.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { benchAccount } from './lib/bench-account.ts';
import { cutShortBody, fileBody, longBoundaryBody, seriesBody, type AttackBody } from './lib/attack-bodies.ts';
import { resultLine, tableHeader, type AttackResult } from './lib/bombs-report.ts';
import { startApiServer, type ChildServer } from './lib/child-server.ts';
import { benchAgent, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import * as makers from '../tests/fixtures/ingest-attacks.ts';
import { largeVolume } from './lib/large-volume.ts';
import { waitForIdle } from './lib/process-cpu.ts';
import { quotaRace } from './lib/quota-race.ts';
import { watchServer } from './lib/server-watch.ts';
import { niftiBytes } from '../tests/server/uploads-fixtures.ts';

const PORT = 18830;
const rssCap = Number(process.env.BOMBS_RSS_CAP_MB ?? 8192) * 1024 * 1024;
const only = (process.env.BOMBS_ONLY ?? '').split(',').filter(Boolean);
// Generous upload rate limits: the benchmark measures what one request costs, not how many are let in.
const serverEnv = { ...databaseEnv, UPLOAD_RATE_PER_MINUTE: '1000000' };
const MB = 1000 * 1000;

/** A server, the bearer token of an account on it, and what an attack step sends with. */
interface Target {
  server: ChildServer;
  auth: Record<string, string>;
  /** Uploads made by earlier steps of the same attack group, by name. */
  stored: Map<string, { stored_filename: string; url: string }>;
}

/** Sends a body to an API path; answers the status, or why there was none. */
async function post(
  target: Target,
  route: string,
  body: AttackBody,
): Promise<{ status: number | string; json?: unknown }> {
  const agent = benchAgent(1);
  try {
    const answer = await send(agent, `${target.server.url}/api/v1${route}`, {
      method: 'POST',
      headers: { ...target.auth, ...body.headers },
      body: body.body,
    });
    let json: unknown;
    try {
      json = JSON.parse(answer.body.toString('utf8'));
    } catch {
      json = undefined;
    }
    return { status: answer.status, json };
  } catch (error) {
    return { status: `failed (${(error as Error).message.slice(0, 40)})` };
  } finally {
    void agent.close().catch(() => {});
  }
}

async function get(target: Target, url: string): Promise<number | string> {
  const agent = benchAgent(1);
  try {
    return (await send(agent, `${target.server.url}${url}`, { headers: target.auth })).status;
  } catch (error) {
    return `failed (${(error as Error).message.slice(0, 40)})`;
  } finally {
    void agent.close().catch(() => {});
  }
}

/** What an attack step sent and what it was answered. */
interface Sent {
  sent: number;
  answers: (number | string)[];
}
/** One step of an attack: makes its bodies, then hands back the function that sends them. */
type Step = (target: Target) => Promise<() => Promise<Sent>>;

/** `copies` uploads of the same attack file at once. */
function upload(make: () => makers.IngestAttack, copies = 1, keepAs?: string): Step {
  return async (target) => {
    const attack = make();
    const bodies = Array.from({ length: copies }, () => fileBody(attack.name, attack.bytes));
    return async () => {
      const answers = await Promise.all(bodies.map((body) => post(target, attack.route, body)));
      const first = answers[0]?.json as { stored_filename?: string; url?: string } | undefined;
      if (keepAs && first?.stored_filename && first.url)
        target.stored.set(keepAs, { stored_filename: first.stored_filename, url: first.url });
      return { sent: bodies.reduce((sum, b) => sum + b.length, 0), answers: answers.map((a) => a.status) };
    };
  };
}

/** `copies` series bodies of `bytes` each at once, streamed. */
function series(bytes: number, copies: number): Step {
  return async (target) => {
    const bodies = Array.from({ length: copies }, () => seriesBody(bytes));
    return async () => {
      const answers = await Promise.all(bodies.map((body) => post(target, '/uploads/series', body)));
      return { sent: bodies.reduce((sum, b) => sum + b.length, 0), answers: answers.map((a) => a.status) };
    };
  };
}

/** GETs of the large volume's previews and thumbnail, or its check, once it was stored by an earlier step. */
function onLarge(what: 'previews' | 'thumbnail' | 'check'): Step {
  return async (target) => async () => {
    const item = target.stored.get('large');
    if (!item) return { sent: 0, answers: ['no upload'] };
    const base = `/api/v1/uploads/${item.stored_filename}`;
    if (what === 'thumbnail') return { sent: 0, answers: [await get(target, `${base}/thumbnail.webp`)] };
    if (what === 'previews') {
      // Slices other than the middle one prepared on arrival: none of them is cached.
      const views = ['axis=axial&slice=20', 'axis=coronal&slice=100', 'axis=sagittal&slice=300'];
      const answers: (number | string)[] = [];
      for (const view of views) answers.push(await get(target, `${base}/preview.png?${view}`));
      return { sent: 0, answers };
    }
    const body = JSON.stringify({
      model: 'google/medgemma-4b-it',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: item.url } }] }],
    });
    const answer = await post(target, '/llm/generate-messages', {
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body: Buffer.from(body),
      length: Buffer.byteLength(body),
    });
    return { sent: body.length, answers: [answer.status] };
  };
}

/** A raw body to POST /uploads and POST /uploads/series. */
function malformed(make: () => AttackBody): Step {
  return async (target) => {
    const bodies = [make(), make()];
    return async () => {
      const answers = [await post(target, '/uploads', bodies[0]!), await post(target, '/uploads/series', bodies[1]!)];
      return { sent: bodies[0]!.length + bodies[1]!.length, answers: answers.map((a) => a.status) };
    };
  };
}

const smallDicom = () => makers.deflatedDicomDeclaring(64, 64).bytes;

/** The attacks, in groups that share one server (a large volume is uploaded, then previewed and checked). */
const groups: { label: string; step: Step }[][] = [
  [{ label: 'NRRD, 16 MB header with no blank line', step: upload(() => makers.nrrdHeaderWithoutBlankLine(16 * MB)) }],
  [{ label: 'NIfTI with a 16 MB vox_offset', step: upload(() => makers.niftiWithHugeVoxOffset(16 * MB)) }],
  [{ label: 'zip of 12.5 MB, entries under the 100x ratio', step: upload(() => makers.zipUnderRatio(12.5 * MB)) }],
  [{ label: 'the same zip, three in parallel', step: upload(() => makers.zipUnderRatio(12.5 * MB), 3) }],
  [{ label: 'zip of 12.5 MB of real CT slices', step: upload(() => makers.zipOfRealSlices(12.5 * MB)) }],
  [{ label: 'three parallel 600 MB series uploads', step: series(600 * MB, 3) }],
  [
    {
      label: 'deflated DICOM of 280 KB declaring 12000x12000',
      step: upload(() => makers.deflatedDicomDeclaring(12000, 12000)),
    },
  ],
  [{ label: 'gzip NIfTI of 10 MB', step: upload(() => makers.gzipNifti(10 * MB)) }],
  [
    { label: 'large volume 512x512x160 int16: upload', step: upload(largeVolume, 1, 'large') },
    { label: 'large volume: three uncached previews', step: onLarge('previews') },
    { label: 'large volume: thumbnail', step: onLarge('thumbnail') },
    { label: 'large volume: one check', step: onLarge('check') },
  ],
  [{ label: 'multipart boundary of 300 characters', step: malformed(() => longBoundaryBody(smallDicom())) }],
  [{ label: 'multipart body cut short', step: malformed(() => cutShortBody(smallDicom())) }],
];

/** Bytes under a folder, recursively (the stored uploads). */
function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(folder, entry.name);
    return sum + (entry.isDirectory() ? folderBytes(full) : entry.isFile() ? statSync(full).size : 0);
  }, 0);
}

/** Runs one attack step against `target`, watching the server until it is idle again. */
async function runStep(target: Target, label: string, step: Step): Promise<AttackResult> {
  const pid = target.server.process.pid!;
  const uploads = path.join(target.server.dataDir, 'uploads');
  const storedBefore = folderBytes(uploads);
  // The attack's bodies are made before the watch starts: making them is the client's work, not the server's.
  const send = await step(target);
  // The machine's own noise (other processes on shared cores), measured on the idle server just before.
  const quiet = await watchServer(target.server.url, pid);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const quietMs = (await quiet.stop()).longestHealthMs;
  const watch = await watchServer(target.server.url, pid, rssCap);
  const started = performance.now();
  const { sent, answers } = await send();
  // Work an answer leaves behind (previews prepared on arrival, a series packed) is part of the attack.
  // A server that exited (stopped at the RSS cap, or crashed) has no /proc entry left to read.
  await waitForIdle(pid, 300_000).catch(() => {});
  const figures = await watch.stop();
  const seconds = (performance.now() - started) / 1000;
  return {
    label,
    watch: figures,
    quietMs,
    sentBytes: sent,
    storedBytes: folderBytes(uploads) - storedBefore,
    answers,
    seconds,
    stopped:
      figures.stopped ??
      (target.server.process.exitCode !== null || target.server.process.signalCode ? 'server exited' : undefined),
  };
}

console.log(`bombs: every attack against a fresh API server (${databaseLabel}), health asked every 20 ms`);
console.log(tableHeader);
const results: AttackResult[] = [];
for (const group of groups) {
  const steps = only.length ? group.filter((s) => only.some((o) => s.label.includes(o))) : group;
  if (steps.length === 0) continue;
  const server = await startApiServer(PORT, serverEnv);
  const target: Target = {
    server,
    auth: { authorization: `Bearer ${await benchAccount(server.url, server.dataDir)}` },
    stored: new Map(),
  };
  // One ordinary upload first: a fresh process compiles its multipart and storage code on the first one.
  await (
    await upload(() => ({ name: 'warm-up.nii', bytes: niftiBytes(), route: '/uploads' }))(target)
  )();
  await waitForIdle(server.process.pid!, 60_000);
  for (const { label, step } of group) {
    if (!steps.some((s) => s.label === label) && !label.endsWith('upload')) continue;
    const result = await runStep(target, label, step);
    results.push(result);
    console.log(resultLine(result));
    if (result.stopped) break;
  }
  // A server the attack took down has exited already: only its data folder is left to remove.
  if (server.process.exitCode !== null || server.process.signalCode) server.removeData();
  else await server.stop().catch(() => server.removeData());
}

if (!only.length || only.some((o) => 'quota'.includes(o))) await quotaRace(PORT, serverEnv);

const misses = results.filter((r) => /MISS|5xx/.test(resultLine(r))).length;
console.log(`\n${results.length} attacks, ${misses} with a figure off target or a 5xx answer`);
