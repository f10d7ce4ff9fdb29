// CPU time of a process as Linux accounts it, for benchmarks that compare how much work servers do.
import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far, all its threads (the kernel's work for it included). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
