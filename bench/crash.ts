// `npm run bench -- crash`: crash safety of uploads and deletions. Each round sends 20 concurrent
// requests (uploads of fresh NIfTI files of 16 to 512 KB, and deletions of earlier uploads) to a server
// process, kills it with SIGKILL at a random moment, restarts it on the same data folder and checks: every
// upload it acknowledged (201), and no deletion was sent for, is listed and byte-identical, no upload it
// acknowledged deleting is listed, and no stored file lacks its row and no temporary file remains.
// CRASH_ROUNDS (default 20) sets the rounds; BENCH_DATABASE_URL runs it on PostgreSQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { niftiBytes } from '../tests/server/uploads-fixtures.ts';

const rounds = Number(process.env.CRASH_ROUNDS ?? 20);
const port = Number(process.env.CRASH_PORT ?? 18797);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'lumenqc-crash-'));
const databaseUrl = process.env.BENCH_DATABASE_URL;

function start(): ChildProcess {
  return spawn(process.execPath, ['server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function ready(): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start');
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Registers, verifies (through the outbox) and signs in one account; answers its bearer header. */
async function account(): Promise<Record<string, string>> {
  const email = `crash-${Date.now()}@example.org`;
  const password = 'Crash-Test-2026!';
  const json = { 'content-type': 'application/json' };
  const registered = await fetch(`${base}/api/v1/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password, name: 'Crash Test' }),
  });
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  let token: string | undefined;
  for (let i = 0; i < 50 && !token; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const outbox = path.join(dataDir, 'outbox');
    for (const name of listFolder(outbox).filter((file) => file.endsWith('.eml'))) {
      const mail = readFileSync(path.join(outbox, name), 'latin1')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? token;
    }
  }
  if (!token) throw new Error('no verification mail');
  const verified = await fetch(`${base}/api/v1/auth/verify/${token}`);
  if (!verified.ok) throw new Error(`verify: ${verified.status}`);
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}

const acknowledged = new Map<string, Buffer>();
const deleted = new Set<string>();
/** Deletions sent, acknowledged or cut off: a cut-off one may or may not have landed. */
const deleting = new Set<string>();
let uploadsAcked = 0;
let deletesAcked = 0;
let cutOff = 0;
/** Answers other than success: none is expected. */
const refusals: string[] = [];

async function upload(auth: Record<string, string>): Promise<void> {
  const bytes = Buffer.concat([niftiBytes(), randomBytes(16 * 1024 + Math.floor(Math.random() * 496 * 1024))]);
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'crash.nii');
  try {
    const res = await fetch(`${base}/api/v1/uploads`, { method: 'POST', headers: auth, body: form });
    if (res.status !== 201) return void refusals.push(`upload ${res.status} ${await res.text()}`);
    const { stored_filename } = (await res.json()) as { stored_filename: string };
    acknowledged.set(stored_filename, bytes);
    uploadsAcked++;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error; // a TypeError is fetch's: the connection was cut
    cutOff++;
  }
}

async function remove(auth: Record<string, string>, name: string): Promise<void> {
  deleting.add(name);
  try {
    const res = await fetch(`${base}/api/v1/uploads/${name}`, { method: 'DELETE', headers: auth });
    if (res.status !== 204) return void refusals.push(`delete ${res.status} ${await res.text()}`);
    deleted.add(name);
    deletesAcked++;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    cutOff++;
  }
}

/** The names in a folder; none when it was never made (no upload finished yet). */
function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

const problems: string[] = [];
let orphansTotal = 0;
let temporaryTotal = 0;
let server = start();
try {
  await ready();
  const auth = await account();
  for (let round = 1; round <= rounds; round++) {
    const live = [...acknowledged.keys()].filter((name) => !deleting.has(name));
    const work = Array.from({ length: 20 }, (_, i) =>
      i % 4 === 3 && live.length > 0
        ? remove(auth, live.splice(Math.floor(Math.random() * live.length), 1)[0]!)
        : upload(auth),
    );
    // The kill lands anywhere from the first requests' arrival to after most have been answered.
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 2500));
    await kill(server);
    await Promise.allSettled(work);
    server = start();
    await ready();
    const listed = (await (await fetch(`${base}/api/v1/uploads`, { headers: auth })).json()) as {
      stored_filename: string;
    }[];
    const names = new Set(listed.map((item) => item.stored_filename));
    let missing = 0;
    let differing = 0;
    let resurrected = 0;
    for (const [name, bytes] of acknowledged) {
      if (deleted.has(name)) {
        if (names.has(name)) resurrected++;
        continue;
      }
      if (!names.has(name)) {
        if (!deleting.has(name)) missing++;
        continue;
      }
      const stored = Buffer.from(
        await (await fetch(`${base}/api/v1/uploads/${name}`, { headers: auth })).arrayBuffer(),
      );
      if (!stored.equals(bytes)) differing++;
    }
    // Uploads cut off before their answer may or may not have landed; either way their file has a row.
    const files = listFolder(path.join(dataDir, 'uploads', 'originals'));
    const orphans = files.filter((name) => !names.has(name)).length;
    const temporary = listFolder(path.join(dataDir, 'uploads', '.tmp')).length;
    orphansTotal += orphans;
    temporaryTotal += temporary;
    console.log(
      `round ${String(round).padStart(2)}: ${listed.length} listed, ${missing} missing, ${differing} differing, ${resurrected} deleted but listed, ${orphans} orphan files, ${temporary} temporary files`,
    );
    if (missing || differing || resurrected || orphans || temporary) problems.push(`round ${round}`);
    for (const refusal of refusals.splice(0)) problems.push(`round ${round}: ${refusal.slice(0, 200)}`);
  }
} finally {
  await kill(server).catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(
  `\n${rounds} rounds: ${uploadsAcked} uploads and ${deletesAcked} deletions acknowledged, ${cutOff} requests cut off by the kill; ` +
    `${orphansTotal} orphan and ${temporaryTotal} temporary files after restarts; problems: ${problems.length ? problems.join(', ') : 'none'}`,
);
process.exitCode = problems.length ? 1 : 0;
