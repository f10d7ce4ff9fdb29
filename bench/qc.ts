// bench/qc: decode time vs check time of the same file, as the API runs both (decodeImage, then checkVolume:
// the measurements and the verdict). One 512×512 slice of every modality family, drawn by the QC corpus's
// generators and stored as uncompressed DICOM (the cheapest decode there is, so the strictest comparison),
// and a 256×256×160 NIfTI volume. Target: the check costs at most 3× the decode. Prints peak memory too.
import { GENERATORS, TRAIN_SETTINGS } from './qc-corpus/generate.ts';
import { rng } from './qc-corpus/image-ops.ts';
import { decodeImage } from '../server/imaging/decode-image.ts';
import type { ModalityFamily } from '../server/imaging/metrics/modality.ts';
import { checkVolume } from '../server/modules/qc/builtin-check.ts';
import { makeDicomImage } from '../tests/fixtures/dicom-fixtures.ts';
import { writeNifti } from '../tests/fixtures/nifti-writer.ts';
import { addRicianNoise, cleanPhantom, toUint16 } from '../tests/fixtures/phantoms.ts';
import { median } from './lib/median.ts';

// Short runs are repeated more, so one scheduler hiccup on a shared machine cannot move the median.
const RUNS = { slice: 31, volume: 7 };
/**
 * Untimed runs first, so both sides are measured with optimised (JIT-compiled) code. Three were too few for
 * the first family measured: its checks still paid for compiling the code every family shares.
 */
const WARMUP = 10;

/** Wall time, and this process's CPU time, which a loaded shared machine inflates far less for long work. */
async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; cpu: number; value: T }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpu: (used.user + used.system) / 1000, value };
}

/** Decodes and checks `bytes` in turns; prints the medians of both and their ratio, by wall and by CPU time. */
async function bench(label: string, bytes: Uint8Array, hint: string, runs: number) {
  const decodes: number[] = [];
  const checks: number[] = [];
  const decodeCpu: number[] = [];
  const checkCpu: number[] = [];
  let verdict = '';
  for (let run = 0; run < WARMUP + runs; run++) {
    const decoded = await time(() => decodeImage(bytes, hint));
    const checked = await time(() => checkVolume(decoded.value));
    if (run < WARMUP) continue;
    decodes.push(decoded.ms);
    checks.push(checked.ms);
    decodeCpu.push(decoded.cpu);
    checkCpu.push(checked.cpu);
    verdict = checked.value.assessment.verdict;
  }
  const decode = median(decodes);
  const check = median(checks);
  const ratio = check / decode;
  const cpuRatio = median(checkCpu) / median(decodeCpu);
  console.log(
    `${label.padEnd(38)} decode ${decode.toFixed(1).padStart(6)} ms   check ${check.toFixed(1).padStart(6)} ms   ` +
      `check/decode ${ratio.toFixed(2)}× ${ratio <= 3 ? '(target ≤ 3×: met)' : '(target ≤ 3×: MISSED)'}   verdict ${verdict}\n` +
      `${''.padEnd(38)} CPU time: decode ${median(decodeCpu).toFixed(1).padStart(6)} ms   check ${median(checkCpu).toFixed(1).padStart(6)} ms   ` +
      `check/decode ${cpuRatio.toFixed(2)}×`,
  );
  return ratio;
}

/** Stored samples of a generated image, as the DICOM fixture writes them (12 bits stored of 16). */
function storedSlice(family: ModalityFamily): Promise<Uint8Array> {
  // NM's generator draws half the size it is given (PET and SPECT matrices are small): 1024 gives 512.
  const v = GENERATORS[family](rng(7), { ...TRAIN_SETTINGS, sizes: [family === 'NM' ? 1024 : 512] });
  // The generators vary the matrix a little (an X-ray is taller, a US sector shorter): 512×512 for all.
  const size = 512;
  const at = (x: number, y: number, c = 0) =>
    v.data[
      (Math.min(v.height - 1, Math.floor((y * v.height) / size)) * v.width +
        Math.min(v.width - 1, Math.floor((x * v.width) / size))) *
        v.channels +
        c
    ]!;
  const modality = { CT: 'CT', MR: 'MR', XR: 'DX', US: 'US', NM: 'NM', SM: 'SM' }[family];
  if (family === 'SM' || family === 'US') {
    const spp = family === 'SM' ? 3 : 1;
    const samples = new Uint8Array(size * size * spp);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++)
        for (let c = 0; c < spp; c++) samples[(y * size + x) * spp + c] = Math.max(0, Math.min(255, at(x, y, c)));
    return makeDicomImage({ width: size, height: size, samples, bitsAllocated: 8, samplesPerPixel: spp, modality });
  }
  // CT as scanners store it: unsigned, intercept -1024. Others spread over the 12 stored bits.
  let min = Infinity,
    max = -Infinity;
  for (const value of v.data) [min, max] = [Math.min(min, value), Math.max(max, value)];
  const stored = (value: number) =>
    family === 'CT' ? value + 1024 : max > min ? ((value - min) / (max - min)) * 4095 : 0;
  const samples = new Uint16Array(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) samples[y * size + x] = Math.max(0, Math.min(4095, Math.round(stored(at(x, y)))));
  return makeDicomImage({
    width: size,
    height: size,
    samples,
    bitsAllocated: 16,
    modality,
    ...(family === 'CT' ? { slope: 1, intercept: -1024 } : {}),
  });
}

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
const phantom = addRicianNoise(cleanPhantom({ size: 512, inner: 800, background: 0 }), 20, 1);
const phantomDicom = await makeDicomImage({ width: 512, height: 512, samples: toUint16(phantom), bitsAllocated: 16 });

console.log(
  `median of ${RUNS.slice} (slice) and ${RUNS.volume} (volume) runs after ${WARMUP} warm-up runs, Node ${process.version}`,
);
const ratios: number[] = [];
for (const family of ['CT', 'MR', 'XR', 'US', 'NM', 'SM'] as const)
  ratios.push(await bench(`${family} 512×512 DICOM (corpus generator)`, await storedSlice(family), '.dcm', RUNS.slice));
ratios.push(await bench('MR 512×512 16-bit DICOM (disc phantom)', phantomDicom, '.dcm', RUNS.slice));
ratios.push(await bench('NIfTI 256×256×160 int16 (MR phantom)', nifti, '.nii', RUNS.volume));
const peak = process.resourceUsage().maxRSS / 1024;
console.log(`peak memory (max RSS): ${peak.toFixed(0)} MB`);
process.exitCode = ratios.every((r) => r <= 3) ? 0 : 1;
