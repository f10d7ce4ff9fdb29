import { describe, expect, it } from 'vitest';
import { crashedFiles } from '../../../scripts/vitest-run.ts';

// The end of a real run in which V8 aborted one test process (the messages as Vitest prints them).
const crashed = `
Error: [vitest-pool]: Worker forks emitted error.
Caused by: Error: Worker exited unexpectedly with signal SIGTRAP during started state while running test file /ci/tests/server/deidentify-proof.test.ts
 ❯ ChildProcess.emitUnexpectedExit node_modules/vitest/dist/chunks/index.js:5447:33

 Test Files  113 passed | 1 skipped (115)
      Tests  1237 passed | 1 skipped (1252)
     Errors  1 error
`;

describe('which test files run again after V8 aborted their process', () => {
  it('names the file whose process was lost when no test failed', () => {
    expect(crashedFiles(crashed)).toEqual([{ signal: 'SIGTRAP', file: '/ci/tests/server/deidentify-proof.test.ts' }]);
  });

  it('runs nothing again when a test failed as well', () => {
    const failed = crashed.replace('1237 passed', '1 failed | 1236 passed');
    expect(crashedFiles(failed)).toEqual([]);
  });

  it('runs nothing again for an ordinary failure', () => {
    expect(crashedFiles(' Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n')).toEqual([]);
  });
});
