// `npm test`: every suite (unit, server, browser), in that order; stops at the first failing suite.
import { spawnSync } from 'node:child_process';
import { buildSiteIfStale } from './site-build.ts';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// vitest-run.ts runs a file again only when V8 itself aborted its test process (see there).
run(process.execPath, ['scripts/vitest-run.ts']);
buildSiteIfStale();
run('npx', ['playwright', 'test']);
