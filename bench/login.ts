// 50 parallel sign-ins (BENCH_USERS) against the real server in a child process, in waves (BENCH_ROUNDS),
// each alternated with a wave against bare node:http that only checks the same password on the same argon2
// pool (bench/lib/bare-login-server.ts): p50/p95/p99 of both, their p99 ratio, and the server's event-loop
// delay meanwhile (targets: p99 ≤ 1 s, event-loop delay ≤ 50 ms). Meanwhile one more signed-in client asks
// GET /api/v1/dashboard/metrics every 20 ms, one request at a time: what a sign-in flood does to everyone else's
// routes, beside that client's latency on the idle server. BENCH_DATABASE_URL runs it on PostgreSQL.
// The same file is the child: with LOGIN_BENCH_CHILD set it measures its own event loop and runs the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  benchPort,
  refuseTakenPort,
  serverDir,
  serverEntry,
  serverLabel,
  startChildServer,
} from './lib/child-server.ts';
import { benchAgent, expectOk, send } from './lib/client.ts';
import { databaseEnv, databaseLabel } from './lib/database.ts';
import { httpLoad, percentile, type LoadResult } from './lib/load.ts';
import { pairedRounds } from './lib/paired-rounds.ts';

const USERS = Number(process.env.BENCH_USERS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PASSWORD = 'Bench-Password-1!';

interface Delay {
  p99: number;
  max: number;
  mean: number;
}

if (process.env.LOGIN_BENCH_CHILD) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('message', (message) => {
    const ms = (ns: number) => ns / 1e6;
    // Every message is answered with the figures since the last reset; "reset" then starts afresh.
    process.send?.({ p99: ms(delay.percentile(99)), max: ms(delay.max), mean: ms(delay.mean) });
    if (message === 'reset') delay.reset();
  });
  await import(pathToFileURL(serverEntry).href);
} else {
  await runBench();
}

async function waitForHealth(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not start');
}

/** Verification tokens from the outbox, by recipient. */
function verificationTokens(dataDir: string): Map<string, string> {
  const tokens = new Map<string, string>();
  const outbox = path.join(dataDir, 'outbox');
  for (const name of readdirSync(outbox)) {
    const raw = readFileSync(path.join(outbox, name), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const to = raw.match(/^To: (.*)$/m)?.[1]?.trim();
    const token = raw.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (to && token) tokens.set(to, token);
  }
  return tokens;
}

function ask(child: ChildProcess, message: string): Promise<Delay> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as Delay));
    child.send(message);
  });
}

async function runBench(): Promise<void> {
  const port = benchPort(18802);
  const url = `http://127.0.0.1:${port}`;
  await refuseTakenPort(port);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'imageqc-bench-login-'));
  const child = spawn(process.execPath, [process.argv[1]!], {
    env: {
      ...process.env,
      LOGIN_BENCH_CHILD: '1',
      ...(process.env.BENCH_SERVER_DIR ? { BENCH_SERVER_DIR: serverDir } : {}),
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      ...databaseEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    cwd: serverDir,
  });
  console.log(`API server: ${serverLabel}`);
  const bare = await startChildServer('bench/lib/bare-login-server.ts', 18803, '/', { BARE_PASSWORD: PASSWORD });
  try {
    await waitForHealth(url);
    const run = Date.now();
    const emails = Array.from({ length: USERS }, (_, i) => `bench${i}-${run}@example.org`);
    const post = (route: string, body: unknown) =>
      fetch(`${url}/api/v1${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const email of emails) await post('/auth/register', { name: 'Bench', email, password: PASSWORD });
    await new Promise((resolve) => setTimeout(resolve, 500)); // mail is written just after each answer
    const tokens = verificationTokens(dataDir);
    for (const email of emails) await fetch(`${url}/api/v1/auth/verify/${tokens.get(email)}`);

    /** One wave: every user signs in at once, one connection each. */
    const wave = (target: string) =>
      httpLoad({
        url: target,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections: USERS,
        amount: USERS,
        setupConnection: (client, index) =>
          client.setBody(JSON.stringify({ email: emails[index], password: PASSWORD })),
      });
    await wave(`${url}/api/v1/auth/login`); // warm-up: JIT, connection pool, argon2 threads
    await wave(bare.url);

    // The other route's client: its own session, its own kept-alive connection.
    const signedIn = await post('/auth/login', { email: emails[0], password: PASSWORD });
    const probeAuth = { authorization: `Bearer ${((await signedIn.json()) as { access_token: string }).access_token}` };
    const probeAgent = benchAgent(1);
    const probeOnce = async () => {
      const started = performance.now();
      expectOk(
        await send(probeAgent, `${url}/api/v1/dashboard/metrics`, { headers: probeAuth }),
        'GET /dashboard/metrics',
      );
      return performance.now() - started;
    };
    const idleProbe: number[] = [];
    for (let i = 0; i < 100; i++) {
      idleProbe.push(await probeOnce());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const floodProbe: number[] = [];
    /** Runs `during` while the probe asks every 20 ms. */
    const probed = async <T>(during: Promise<T>): Promise<T> => {
      let running = true;
      const loop = (async () => {
        while (running) {
          floodProbe.push(await probeOnce());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      try {
        return await during;
      } finally {
        running = false;
        await loop;
      }
    };

    let worstDelay: Delay = { p99: 0, max: 0, mean: 0 };
    const pairs = await pairedRounds(ROUNDS, {
      app: async () => {
        await ask(child, 'reset');
        const result = await probed(wave(`${url}/api/v1/auth/login`));
        const delay = await ask(child, 'report');
        if (delay.max > worstDelay.max) worstDelay = delay;
        return result;
      },
      bare: () => wave(bare.url),
    });
    const all = (side: 'app' | 'bare') =>
      pairs.flatMap((p: Record<'app' | 'bare', LoadResult>) => p[side].latencies).sort((a, b) => a - b);
    const line = (side: 'app' | 'bare') => {
      const sorted = all(side);
      return `p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms, p99 ${percentile(sorted, 0.99).toFixed(0)} ms`;
    };
    const p99 = percentile(all('app'), 0.99);
    console.log(
      `login (${databaseLabel}): ${ROUNDS} waves of ${USERS} parallel sign-ins (${all('app').length} in all), alternated with the baseline`,
    );
    console.log(`  this server ${line('app')} (target p99 <= 1000 ms${p99 <= 1000 ? ': met' : ': MISSED'})`);
    console.log(`  bare node:http checking the same password on the same argon2 pool ${line('bare')}`);
    console.log(`  p99 ratio ${(p99 / percentile(all('bare'), 0.99)).toFixed(2)} against the bare baseline`);
    console.log(
      `  server event-loop delay max ${worstDelay.max.toFixed(1)} ms, p99 ${worstDelay.p99.toFixed(1)} ms, ` +
        `mean ${worstDelay.mean.toFixed(1)} ms (target <= 50 ms)`,
    );
    await probeAgent.close();
    const probeLine = (latencies: number[]) => {
      const sorted = [...latencies].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${sorted.length} requests)`;
    };
    console.log(`  GET /dashboard/metrics by another signed-in client during the waves: ${probeLine(floodProbe)}`);
    console.log(`  the same client on the idle server: ${probeLine(idleProbe)}`);
  } finally {
    await bare.stop();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
