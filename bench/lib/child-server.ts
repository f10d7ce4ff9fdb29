import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The checkout whose API server the benchmarks start: BENCH_SERVER_DIR (another worktree, e.g. an older
 * commit, with its own node_modules), else this one. The load generator, the client, the baselines and the
 * rounds stay this checkout's, so the same harness measures both servers.
 */
export const serverDir = path.resolve(process.env.BENCH_SERVER_DIR ?? '.');

/** The entry script of the API server in `serverDir`. */
export const serverEntry = path.join(serverDir, 'server', 'main.ts');
if (!existsSync(serverEntry)) throw new Error(`BENCH_SERVER_DIR: no server/main.ts in ${serverDir}`);

/** Which server the figures are of, for the printed lines: "this checkout" or the folder and its commit. */
export const serverLabel = process.env.BENCH_SERVER_DIR
  ? `server of ${serverDir} at ${gitCommit(serverDir)}`
  : 'server of this checkout';

function gitCommit(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'an unknown commit';
  }
}

/** A server process started for a benchmark, stopped by `stop()`. */
export interface ChildServer {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** Stops the process and removes its data folder, unless told to keep it for `removeData` later. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  removeData(): void;
}

/** The port to use for `port`: BENCH_PORT_OFFSET moves every port, so two benchmarks can run side by side. */
export function benchPort(port: number): number {
  return port + Number(process.env.BENCH_PORT_OFFSET ?? 0);
}

/**
 * Throws when something already answers on `port`: the benchmark would otherwise measure that process (another
 * benchmark's server on a shared machine) while its own child fails to listen.
 */
export async function refuseTakenPort(port: number): Promise<void> {
  const taken = await fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${port} is taken by another process; stop it or wait until it ends`);
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Starts `node <script>` on `port` with a fresh DATA_DIR and waits until `readyPath` answers 200; `cwd` is
 * the folder it runs in (this one unless given).
 */
export async function startChildServer(
  script: string,
  port: number,
  readyPath: string,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<ChildServer> {
  const listenPort = benchPort(port);
  await refuseTakenPort(listenPort);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'imageqc-bench-'));
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the servers a bench starts.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: {
      ...process.env,
      PORT: String(listenPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      // Benchmarks send thousands of uploads from one account: they measure cost, not the per-account rate.
      UPLOAD_RATE_PER_MINUTE: '1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    ...(cwd ? { cwd } : {}),
  });
  const url = `http://127.0.0.1:${listenPort}`;
  // BENCH_START_TIMEOUT_S: on a loaded machine a fresh server can take over a minute to migrate and listen.
  await waitFor(url + readyPath, Number(process.env.BENCH_START_TIMEOUT_S ?? 60) * 1000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  return {
    url,
    process: child,
    dataDir,
    async stop({ keepData = false } = {}) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!keepData) removeData();
    },
    removeData,
  };
}

let announced = false;

/** Starts the API server of `serverDir` (see BENCH_SERVER_DIR) in that folder, ready once /api/v1/health answers. */
export function startApiServer(port: number, env: Record<string, string> = {}): Promise<ChildServer> {
  if (!announced) console.log(`API server: ${serverLabel}`);
  announced = true;
  return startChildServer(serverEntry, port, '/api/v1/health', env, serverDir);
}
