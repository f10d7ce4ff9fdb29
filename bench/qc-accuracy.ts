// bench/qc-accuracy: the built-in engine on images it was not fitted on. The held-out split is generated with
// another seed and other generator settings than the training split (bench/qc-corpus/fit.ts); the real tier is
// Debian's pydicom/nibabel/GDCM/dicom3tools example images, clean and with the same degradations applied.
// Prints, per modality family and degradation, detection rate, false-alarm rate, balanced accuracy and
// expected calibration error. Target: ≥ 98% of strong degradations found, ≤ 2% false alarms on clean images.
import type { ModalityFamily } from '../server/imaging/metrics/modality.ts';
import { FAMILIES, HELD_OUT, realTier, syntheticSplit } from './qc-corpus/corpus.ts';
import { report, run } from './qc-corpus/evaluate.ts';
import { HELD_OUT_SETTINGS } from './qc-corpus/generate.ts';
import { QC_MODEL } from '../server/imaging/qc-model.ts';

console.log(`model: ${QC_MODEL.version}, fitted by ${QC_MODEL.provenance}`);
const started = performance.now();
// BENCH_FAMILIES=CT,MR scores those families alone (the split's images of the others are not even drawn).
const only = (process.env.BENCH_FAMILIES?.split(',') ?? FAMILIES) as ModalityFamily[];
const heldOut = await run(syntheticSplit(HELD_OUT.seed, HELD_OUT_SETTINGS, HELD_OUT.size, only));
const syntheticMet = report(
  `held-out synthetic split (seed ${HELD_OUT.seed}, other sizes, noise, contrast and blur ranges; ${heldOut.length} images)`,
  heldOut,
);
const real = (await run(realTier(3))).filter((o) => only.includes(o.family));
report(
  `real tier (${real.length} images: ${real.filter((o) => o.kind === 'clean').length} clean from Debian packages, and their degraded copies)`,
  real,
);
console.log(
  `\n${((performance.now() - started) / 1000).toFixed(0)} s; synthetic targets ${syntheticMet ? 'met in every family' : 'missed in some family (see above)'}`,
);
