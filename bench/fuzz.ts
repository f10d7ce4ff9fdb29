// `npm run bench -- fuzz`: 20,000 generated requests (FUZZ_RUNS to change) over every route of the real
// app, in process, with the generators and fixtures of the CI fuzz suite (tests/fuzz/). Prints the answers per
// status class (overall and for the hostile and the valid arm) and every request answered 5xx or with an API
// error that is not JSON {"detail"}; exits 1 on any.
import { createFuzzFixtures } from '../tests/fuzz/fuzz-fixtures.ts';
import { fuzzApp } from '../tests/fuzz/fuzz-run.ts';
import { createTestApp } from '../tests/server/helpers/test-app.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 20_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const t = await createTestApp();
try {
  const fixtures = await createFuzzFixtures(t);
  const started = performance.now();
  const report = await fuzzApp(t.app, fixtures, runs, seed);
  const seconds = (performance.now() - started) / 1000;
  const successes = report.byClass['2xx'] ?? 0;
  console.log(`fuzz: ${report.requests} requests (seed ${seed}) in ${seconds.toFixed(1)} s`);
  console.log(`answers: ${JSON.stringify(report.byClass)}; 2xx ${((100 * successes) / report.requests).toFixed(1)}%`);
  console.log(`by arm: ${JSON.stringify(report.byArm)}`);
  console.log(`failures (5xx or non-JSON errors): ${report.failures.length}`);
  for (const failure of report.failures.slice(0, 20)) console.log(JSON.stringify(failure));
  process.exitCode = report.failures.length ? 1 : 0;
} finally {
  await t.close();
}
