// Orthanc (Debian's package) started for a benchmark on loopback with a throw-away configuration.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchPort, refuseTakenPort } from './child-server.ts';

/** The Orthanc executable, or undefined when it is not installed. */
export function orthancExecutable(): string | undefined {
  for (const candidate of ['Orthanc', '/usr/sbin/Orthanc']) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return undefined;
}

/** A running Orthanc; `stop` removes its folder unless told to keep it for `removeData` later. */
export interface OrthancServer {
  url: string;
  pid: number;
  stop(options?: { keepData?: boolean }): Promise<void>;
  removeData(): void;
}

/** Starts Orthanc on `port` (HTTP only, no DICOM listener, no plugins, no authentication) and waits for it. */
export async function startOrthanc(executable: string, orthancPort: number): Promise<OrthancServer> {
  const port = benchPort(orthancPort);
  await refuseTakenPort(port);
  const dir = mkdtempSync(path.join(tmpdir(), 'orthanc-bench-'));
  const config = path.join(dir, 'orthanc.json');
  writeFileSync(
    config,
    JSON.stringify({
      Name: 'bench',
      StorageDirectory: path.join(dir, 'storage'),
      IndexDirectory: path.join(dir, 'index'),
      HttpPort: port,
      RemoteAccessAllowed: false,
      AuthenticationEnabled: false,
      DicomServerEnabled: false,
      Plugins: [],
      HttpCompressionEnabled: false,
      StorageCompression: false,
    }),
  );
  const child = spawn(executable, [config], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/system`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('Orthanc did not start within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const removeData = () => rmSync(dir, { recursive: true, force: true });
  return {
    url,
    pid: child.pid!,
    async stop({ keepData = false } = {}) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      if (!keepData) removeData();
    },
    removeData,
  };
}
