// `vitest run` with the given arguments, its output streamed as it comes.
//
// Node 24's V8 can abort a test process while it frees WebAssembly code ("Check failed:
// jit_page_->allocations_.erase(addr) == 1", SIGTRAP): a race in V8's process-wide JIT page registry when
// WebAssembly modules (PGlite, the image codecs) are compiled and freed, reported upstream as
// nodejs/node#64500 and still open for every 24.x. Vitest then fails the run with "Worker exited unexpectedly
// with signal …" for the file that process was running, although no assertion failed. Those files, and only
// those, are run once more on their own, and the run says so; a run with a failed test is never repeated.
import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

// SIGTRAP is V8's failed CHECK; the same race also shows as SIGSEGV. Other deaths (SIGKILL: memory) are real.
const CRASH = /Worker exited unexpectedly with signal (SIGTRAP|SIGSEGV) .*? while running test file (\S+)/g;

/** Runs `npx vitest run …args`, echoing its output; resolves to its exit code and what it printed. */
function vitest(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vitest', 'run', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output: stripVTControlCharacters(output) }));
  });
}

/** The test files whose process V8 aborted, when that is the run's only fault; otherwise none. */
export function crashedFiles(output: string): { file: string; signal: string }[] {
  const summary = output.match(/^\s*Tests\s+(.*)$/m)?.[1] ?? '';
  if (/failed/.test(summary)) return [];
  return [...output.matchAll(CRASH)].map(([, signal, file]) => ({ signal: signal!, file: file! }));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const first = await vitest(args);
  const crashed = first.code === 0 ? [] : crashedFiles(first.output);
  if (crashed.length === 0) process.exit(first.code);
  for (const { file, signal } of crashed)
    console.log(
      `\nThe test process running ${file} died of ${signal} (V8, nodejs/node#64500); running the file again.`,
    );
  // The same projects (and options) as the first run, limited to the files whose process was lost.
  const again = await vitest([...args, ...new Set(crashed.map((c) => c.file))]);
  process.exit(again.code);
}
