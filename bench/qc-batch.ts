// bench/qc-batch: 1,000 DICOM slices (512×512, 16-bit MR phantoms) checked as one batch job through the API of
// a real server process, timed from POST /qc/batches to the job's `done`, progress read through the API as the
// Analysis page reads it. Target: within 60 s on 2 cores. BENCH_DATABASE_URL runs the server on PostgreSQL;
// BENCH_SLICES changes the count.
import { availableParallelism } from 'node:os';
import { makeDicomImage } from '../tests/fixtures/dicom-fixtures.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../tests/fixtures/phantoms.ts';
import { benchAccount } from './lib/bench-account.ts';
import { startApiServer } from './lib/child-server.ts';

const slices = Number(process.env.BENCH_SLICES ?? 1000);
const TARGET_S = 60;

const variants = await Promise.all(
  Array.from({ length: 8 }, async (_, seed) => {
    const noisy = addRicianNoise(cleanPhantom({ size: 512, inner: 800, background: 0 }), 15 + seed * 2, seed + 1);
    return makeDicomImage({ width: 512, height: 512, samples: toUint16(noisy), bitsAllocated: 16 });
  }),
);

const env: Record<string, string> = process.env.BENCH_DATABASE_URL
  ? { DATABASE_URL: process.env.BENCH_DATABASE_URL }
  : {};
const server = await startApiServer(18797, env);
try {
  const token = await benchAccount(server.url, server.dataDir);
  const auth = { authorization: `Bearer ${token}` };
  const api = `${server.url}/api/v1`;
  let next = 0;
  const uploadStart = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < slices) {
        const index = next++;
        const form = new FormData();
        form.append('file', new Blob([variants[index % variants.length]!]), `slice-${index}.dcm`);
        const res = await fetch(`${api}/uploads`, { method: 'POST', headers: auth, body: form });
        if (res.status !== 201) throw new Error(`upload ${index}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  console.log(`${slices} slices uploaded in ${((performance.now() - uploadStart) / 1000).toFixed(1)} s (not timed)`);

  const start = performance.now();
  const created = await fetch(`${api}/qc/batches`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ scope: 'library' }),
  });
  if (created.status !== 202) throw new Error(`batch: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  let batch: {
    status: string;
    total: number;
    checked: number;
    errors: number;
    pass: number;
    review: number;
    fail: number;
  };
  let reported = 0;
  for (;;) {
    batch = (await (await fetch(`${api}/qc/batches/${id}`, { headers: auth })).json()) as typeof batch;
    const seconds = (performance.now() - start) / 1000;
    if (batch.checked >= reported + slices / 4 && batch.status === 'running') {
      reported = batch.checked;
      console.log(`  ${seconds.toFixed(1).padStart(5)} s: ${batch.checked}/${batch.total} checked`);
    }
    if (batch.status === 'done' || batch.status === 'cancelled') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `batch of ${batch.total} slices: ${batch.status} in ${seconds.toFixed(1)} s ` +
      `(${(batch.checked / seconds).toFixed(0)} slices/s, ${batch.checked} checked, ${batch.errors} errors; ` +
      `pass ${batch.pass}, review ${batch.review}, fail ${batch.fail}) on ${availableParallelism()} cores, ` +
      `database ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}   ` +
      `${seconds <= TARGET_S ? `(target ≤ ${TARGET_S} s: met)` : `(target ≤ ${TARGET_S} s: MISSED)`}`,
  );
  process.exitCode = batch.status === 'done' && batch.checked === slices && seconds <= TARGET_S ? 0 : 1;
} finally {
  await server.stop();
}
