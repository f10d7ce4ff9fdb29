// `npm run bench -- fuzz`: 20,000 generated requests (FUZZ_RUNS to change) over every route of the real
// app, in process, with the generators of the CI fuzz suite (tests/fuzz/). Prints the answers per status
// class and every request answered 5xx or with an API error that is not JSON {"detail"}; exits 1 on any.
import { fuzzApp } from '../tests/fuzz/fuzz-run.ts';
import { createTestApp } from '../tests/server/helpers/test-app.ts';
import { createSignedInUser } from '../tests/server/helpers/users.ts';
import { dicomBytes, niftiGzBytes, pngBytes, uploadFile } from '../tests/server/uploads-fixtures.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 20_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const t = await createTestApp();
try {
  const user = await createSignedInUser(t);
  const storedNames: string[] = [];
  for (const [name, bytes] of [
    ['a.png', await pngBytes()],
    ['b.nii.gz', niftiGzBytes()],
    ['c.dcm', dicomBytes()],
  ] as const) {
    storedNames.push((await uploadFile(t, user, name, bytes)).json().stored_filename);
  }
  const started = performance.now();
  const report = await fuzzApp(t.app, { tokens: [user.token], storedNames }, runs, seed);
  const seconds = (performance.now() - started) / 1000;
  console.log(`fuzz: ${report.requests} requests (seed ${seed}) in ${seconds.toFixed(1)} s`);
  console.log(`answers: ${JSON.stringify(report.byClass)}`);
  console.log(`failures (5xx or non-JSON errors): ${report.failures.length}`);
  for (const failure of report.failures.slice(0, 20)) console.log(JSON.stringify(failure));
  process.exitCode = report.failures.length ? 1 : 0;
} finally {
  await t.close();
}
