// `npm run bench`: every benchmark under bench/, one after another; `npm run bench -- upload` runs one.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const benches = readdirSync('bench')
  .filter((name) => name.endsWith('.ts'))
  .filter((name) => only.length === 0 || only.some((o) => name.startsWith(o)))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n=== bench/${name}`);
  const result = spawnSync(process.execPath, [`bench/${name}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
