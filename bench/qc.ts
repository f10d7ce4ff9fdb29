// bench/qc: decode time vs check time (metrics + verdict) of a 512×512 16-bit DICOM and a 256×256×160 NIfTI.
// Target: the check costs at most 3× the decode. Prints peak memory (max RSS) too.
import { decodeImage } from '../server/imaging/decode-image.ts';
import { measureQuality } from '../server/imaging/metrics/quality-metrics.ts';
import { assessQuality } from '../server/imaging/verdict.ts';
import { makeDicomImage } from '../tests/fixtures/dicom-fixtures.ts';
import { writeNifti } from '../tests/fixtures/nifti-writer.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../tests/fixtures/phantoms.ts';
import { median } from './lib/median.ts';

// Short runs are repeated more, so one scheduler hiccup on a shared machine cannot move the median.
const RUNS = { slice: 31, volume: 7 };
/** Untimed runs first, so both sides are measured with optimised (JIT-compiled) code. */
const WARMUP = 3;

/** Wall time, and this process's CPU time, which a loaded shared machine inflates far less for long work. */
async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}

async function bench(label: string, bytes: Uint8Array, hint: string, runs: number) {
  const decodes: number[] = [];
  const checks: number[] = [];
  const decodeCpu: number[] = [];
  const checkCpu: number[] = [];
  let verdict = '';
  for (let run = 0; run < WARMUP + runs; run++) {
    const decoded = await time(() => decodeImage(bytes, hint));
    const checked = await time(() => assessQuality(measureQuality(decoded.value)));
    if (run < WARMUP) continue;
    decodes.push(decoded.ms);
    checks.push(checked.ms);
    decodeCpu.push(decoded.cpu);
    checkCpu.push(checked.cpu);
    verdict = checked.value.verdict;
  }
  const decode = median(decodes);
  const check = median(checks);
  const ratio = check / decode;
  console.log(
    `${label.padEnd(34)} decode ${decode.toFixed(1).padStart(7)} ms   check ${check.toFixed(1).padStart(7)} ms   ` +
      `check/decode ${ratio.toFixed(2)}× ${ratio <= 3 ? '(target ≤ 3×: met)' : '(target ≤ 3×: MISSED)'}   verdict ${verdict}\n` +
      `${''.padEnd(34)} CPU time: decode ${median(decodeCpu).toFixed(1).padStart(6)} ms   check ${median(checkCpu).toFixed(1).padStart(7)} ms   ` +
      `check/decode ${(median(checkCpu) / median(decodeCpu)).toFixed(2)}×`,
  );
  return ratio;
}

const slice512 = addRicianNoise(cleanPhantom({ size: 512, inner: 800, background: 0 }), 20, 1);
const dicom = await makeDicomImage({ width: 512, height: 512, samples: toUint16(slice512), bitsAllocated: 16 });

const [w, h, d] = [256, 256, 160];
const volume = new Int16Array(w * h * d);
const base = cleanPhantom({ size: 256, inner: 800, background: 0 });
for (let z = 0; z < d; z++) {
  const noisy = addRicianNoise(base, 20, z + 1);
  const inside = Math.abs(z - d / 2) < d * 0.4;
  for (let i = 0; i < w * h; i++)
    volume[z * w * h + i] = Math.round(inside ? noisy.values[i]! : Math.abs(noisy.values[0]!));
}
const nifti = writeNifti({ dims: [w, h, d], values: volume, type: 'int16', gzip: false });

console.log(
  `median of ${RUNS.slice} (slice) and ${RUNS.volume} (volume) runs after ${WARMUP} warm-up runs, Node ${process.version}`,
);
const ratios = [
  await bench('DICOM 512×512 16-bit (MR phantom)', dicom, '.dcm', RUNS.slice),
  await bench('NIfTI 256×256×160 int16 (MR phantom)', nifti, '.nii', RUNS.volume),
];
const peak = process.resourceUsage().maxRSS / 1024;
console.log(`peak memory (max RSS): ${peak.toFixed(0)} MB`);
process.exitCode = ratios.every((r) => r <= 3) ? 0 : 1;
