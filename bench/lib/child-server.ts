import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A server process started for a benchmark, stopped by `stop()`. */
export interface ChildServer {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** Stops the process and removes its data folder, unless told to keep it for `removeData` later. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  removeData(): void;
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

/** Starts `node <script>` on `port` with a fresh DATA_DIR and waits until `readyPath` answers 200. */
export async function startChildServer(
  script: string,
  port: number,
  readyPath: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'imageqc-bench-'));
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the servers a bench starts.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url + readyPath);
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
