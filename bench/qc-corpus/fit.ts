// Fits the QC model's limits and confidence calibration on the training split and writes them, with how
// they were made, to server/imaging/qc-model.ts. Run: node bench/qc-corpus/fit.ts
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { quantile } from '../../server/imaging/metrics/image-stats.ts';
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import { measureQuality } from '../../server/imaging/metrics/quality-metrics.ts';
import { DETECTORS, judges, type DetectorLimits, type QcModel } from '../../server/imaging/qc-detectors.ts';
import { QC_MODEL } from '../../server/imaging/qc-model.ts';
import { fitConfidence } from './calibrate.ts';
import { FAMILIES, syntheticSplit, type Sample } from './corpus.ts';
import { TRAIN_SETTINGS } from './generate.ts';

/** The training split: seed 1, the training generator settings. */
export const TRAIN = { seed: 1, size: { clean: 80, perDegradation: 10 } };

/** One measured training image. */
export interface Row {
  family: ModalityFamily;
  kind: Sample['kind'];
  strength?: Sample['strength'];
  /** The DICOM modality, upper case: some detectors judge part of a family only. */
  modality: string;
  measures: Record<string, number>;
}

const oriented = (direction: 'high' | 'low', v: number) => (direction === 'high' ? v : -v);

/**
 * A detector's limits: review halfway between the worst clean image and the 5th percentile of the strongly
 * degraded images it targets when they separate, and at least a quarter of the clean spread beyond the
 * worst clean image (so images a little outside the training ones are not flagged); fail halfway on to the
 * strong images' lower quartile.
 */
function fitLimits(clean: number[], strong: number[]): DetectorLimits {
  const center = quantile(clean, 50);
  const edge = Math.max(...clean);
  const spread = Math.max(edge - center, 1e-6);
  const low = strong.length ? quantile(strong, 5) : edge + spread;
  const review = Math.max(low > edge ? (edge + low) / 2 : edge, edge + 0.25 * spread);
  const q25 = strong.length ? quantile(strong, 25) : review;
  return { review, fail: q25 > review ? (review + q25) / 2 : review, center };
}

/** The worst detector score of a measured image under given limits (as assessQuality computes it). */
export function worstScore(
  family: ModalityFamily,
  modality: string,
  measures: Record<string, number>,
  limits: Record<string, DetectorLimits>,
) {
  let worst = -4;
  for (const d of DETECTORS[family]) {
    const l = limits[d.id];
    if (!l || !judges(d, modality) || measures[d.measure] === undefined) continue;
    const x = oriented(d.direction, measures[d.measure]!);
    worst = Math.max(worst, Math.min(4, Math.max(-4, (x - l.review) / Math.max(1e-9, Math.abs(l.review - l.center)))));
  }
  return worst;
}

/** The family's detector limits, fitted on its measured training images. */
export function familyLimits(family: ModalityFamily, mine: Row[]): Record<string, DetectorLimits> {
  const limits: Record<string, DetectorLimits> = {};
  for (const d of DETECTORS[family]) {
    // An image that does not allow the measurement (no air to see a ghost in) is not judged on it.
    const clean = mine
      .filter((r) => r.kind === 'clean' && r.measures[d.measure] !== undefined)
      .map((r) => oriented(d.direction, r.measures[d.measure]!));
    const strong = mine
      .filter((r) => r.strength === 'strong' && d.targets.includes(r.kind as never))
      .filter((r) => r.measures[d.measure] !== undefined)
      .map((r) => oriented(d.direction, r.measures[d.measure]!));
    if (!clean.length) continue;
    const fitted = fitLimits(clean, strong);
    if (d.bounds) {
      // The bounds are on the measure's scale; on the oriented scale a 'low' detector's are negated.
      const [a, b] = d.bounds.map((v) => oriented(d.direction, v)) as [number, number];
      const review = Math.min(Math.max(a, b), Math.max(Math.min(a, b), fitted.review));
      fitted.fail = Math.max(fitted.fail, review);
      fitted.review = review;
    }
    limits[d.id] = fitted;
  }
  return limits;
}

/** How many folds the confidence is cross-fitted over. */
const FOLDS = 5;

/**
 * The family's confidence tables, fitted on what the verdict is meant to tell apart: clean images and strongly
 * degraded ones. Each side of the verdict gets its own table, fitted on the images the limits put on that side,
 * so a pass's confidence is P(clean | passed, margin) and a flagged verdict's P(degraded | flagged, margin).
 * Limits fitted on an image never misjudge it (they sit past every clean training image), so each image is
 * scored by limits fitted without it (five folds): the tables learn how often limits err on images they were
 * not fitted on, as the check's users' images are.
 */
export function familyConfidence(
  family: ModalityFamily,
  mine: Row[],
): QcModel['families'][ModalityFamily]['confidence'] {
  const judged: { worst: number; clean: boolean }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const limits = familyLimits(
      family,
      mine.filter((_, i) => i % FOLDS !== fold),
    );
    for (const r of mine.filter((_, i) => i % FOLDS === fold))
      if (r.kind === 'clean' || r.strength === 'strong')
        judged.push({ worst: worstScore(family, r.modality, r.measures, limits), clean: r.kind === 'clean' });
  }
  const passed = judged.filter((j) => j.worst < 0);
  const flagged = judged.filter((j) => j.worst >= 0);
  return {
    pass: fitConfidence(
      passed.map((j) => -j.worst),
      passed.map((j) => j.clean),
    ),
    flagged: fitConfidence(
      flagged.map((j) => j.worst),
      flagged.map((j) => !j.clean),
    ),
  };
}

async function main() {
  // Families named on the command line are refitted alone; the others keep their committed parameters.
  const only = process.argv.slice(2) as ModalityFamily[];
  const rows: Row[] = [];
  const started = performance.now();
  for (const s of syntheticSplit(TRAIN.seed, TRAIN_SETTINGS, TRAIN.size, only.length ? only : FAMILIES)) {
    const m = measureQuality(s.volume);
    rows.push({ family: s.family, kind: s.kind, strength: s.strength, modality: m.modality, measures: m.measures });
    if (rows.length % 200 === 0)
      console.log(`${rows.length} images measured (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const families = { ...QC_MODEL.families } as QcModel['families'];
  for (const family of FAMILIES) {
    if (only.length && !only.includes(family)) continue;
    const mine = rows.filter((r) => r.family === family);
    const limits = familyLimits(family, mine);
    const confidence = familyConfidence(family, mine);
    families[family] = { limits, confidence };
    console.log(family, JSON.stringify(families[family]));
  }
  const model: QcModel = {
    version: 'qc-model-2',
    provenance: `bench/qc-corpus/fit.ts on the training split (seed ${TRAIN.seed}, ${TRAIN.size.clean} clean images per family and ${TRAIN.size.perDegradation} per degradation and strength)`,
    families,
  };
  const round = (v: number) => Number(v.toPrecision(5));
  const json = JSON.stringify(model, (_, v) => (typeof v === 'number' ? round(v) : v), 2);
  writeFileSync(
    'server/imaging/qc-model.ts',
    `import type { QcModel } from './qc-detectors.ts';\n\n/** The fitted limits and confidence calibration; written by bench/qc-corpus/fit.ts, not by hand. */\nexport const QC_MODEL: QcModel = ${json};\n`,
  );
  execFileSync('npx', ['prettier', '--write', 'server/imaging/qc-model.ts'], { stdio: 'ignore' });
  console.log(`written server/imaging/qc-model.ts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

if (import.meta.main) await main();
