// `npm run bench`: every benchmark under bench/, one after another; `npm run bench -- upload` runs one.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const all = readdirSync('bench').filter((name) => name.endsWith('.ts'));
// A name that is a whole benchmark runs only that one (`qc` is not also `qc-batch`); otherwise it is a prefix.
const chosen = (name: string, o: string) => name === `${o}.ts` || (!all.includes(`${o}.ts`) && name.startsWith(o));
const benches = all.filter((name) => only.length === 0 || only.some((o) => chosen(name, o))).sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name}`);
  const result = spawnSync(process.execPath, [`bench/${name}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
