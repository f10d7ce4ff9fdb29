// CPU time of a process as Linux accounts it, for benchmarks that compare how much work servers do.
import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far, all its threads (the kernel's work for it included). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once process `pid` spent under 5% of a core over a whole second (or after `timeoutMs`), so the
 * work an upload leaves behind (previews prepared on arrival) is not measured as the next benchmark's.
 */
export async function waitForIdle(pid: number, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = cpuSeconds(pid);
    if (now - before < 0.05) return;
    before = now;
  }
}
