// Scores the engine on a stream of labelled images: detection and false-alarm rates, balanced accuracy
// and expected calibration error, per family and degradation.
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import { measureQuality } from '../../server/imaging/metrics/quality-metrics.ts';
import { assessQuality, type Verdict } from '../../server/imaging/verdict.ts';
import { FAMILIES, type Sample } from './corpus.ts';

/** What the engine said about one labelled image. */
export interface Outcome {
  family: ModalityFamily;
  kind: Sample['kind'];
  strength?: Sample['strength'];
  name: string;
  verdict: Verdict;
  confidence: number;
  issues: string[];
}

/** Checks every image of the stream. */
export async function run(samples: Iterable<Sample> | AsyncIterable<Sample>): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for await (const s of samples) {
    const a = assessQuality(measureQuality(s.volume));
    out.push({
      family: s.family,
      kind: s.kind,
      strength: s.strength,
      name: s.name,
      verdict: a.verdict,
      confidence: a.confidence,
      issues: a.issues,
    });
  }
  return out;
}

const flagged = (o: Outcome) => o.verdict !== 'pass';
const pct = (k: number, n: number) => (n ? `${((100 * k) / n).toFixed(1)}%` : '–').padStart(6);

/**
 * Expected calibration error over clean and strongly degraded images (mild ones have no right answer: the
 * model is calibrated to tell clean from strongly degraded): the verdict (pass, or flagged) is right when it
 * matches the label; over ten confidence bins, the weighted gap between accuracy and mean confidence.
 */
export function calibrationError(all: Outcome[]): number {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, right: 0, conf: 0 }));
  const outcomes = all.filter((o) => o.kind === 'clean' || o.strength === 'strong');
  for (const o of outcomes) {
    const b = bins[Math.min(9, Math.floor(o.confidence / 10))]!;
    b.n++;
    b.conf += o.confidence / 100;
    if (flagged(o) === (o.kind !== 'clean')) b.right++;
  }
  const n = outcomes.length || 1;
  return bins.reduce((e, b) => e + (b.n ? (b.n / n) * Math.abs(b.right / b.n - b.conf / b.n) : 0), 0);
}

/** Prints the table of one tier; returns whether every family met ≥ 98% strong detection and ≤ 2% false alarms. */
export function report(title: string, outcomes: Outcome[]): boolean {
  console.log(`\n${title}`);
  let met = true;
  for (const family of FAMILIES) {
    const mine = outcomes.filter((o) => o.family === family);
    if (!mine.length) continue;
    const clean = mine.filter((o) => o.kind === 'clean');
    const alarms = clean.filter(flagged).length;
    const strong = mine.filter((o) => o.strength === 'strong');
    const found = strong.filter(flagged).length;
    const fa = clean.length ? alarms / clean.length : 0;
    const det = strong.length ? found / strong.length : 1;
    const ok = fa <= 0.02 && det >= 0.98;
    met &&= ok;
    console.log(
      `${family.padEnd(3)} clean ${String(clean.length).padStart(3)}: false alarms ${pct(alarms, clean.length)} (${alarms}/${clean.length})   strong found ${pct(found, strong.length)} (${found}/${strong.length})   ` +
        `balanced accuracy ${pct(((1 - fa + det) / 2) * 1000, 1000)}   ECE ${(calibrationError(mine) * 100).toFixed(1)}%   ${ok ? 'target met' : 'target MISSED'}`,
    );
    const kinds = [...new Set(mine.filter((o) => o.kind !== 'clean').map((o) => o.kind))];
    for (const kind of kinds) {
      const of = (s: 'mild' | 'strong') => mine.filter((o) => o.kind === kind && o.strength === s);
      const st = of('strong'),
        mi = of('mild');
      const sf = st.filter(flagged).length,
        mf = mi.filter(flagged).length;
      const bal = ((1 - fa + (st.length ? sf / st.length : 0)) / 2) * 1000;
      console.log(
        `    ${kind.padEnd(15)} strong ${pct(sf, st.length)} (${sf}/${st.length})   mild ${pct(mf, mi.length)} (${mf}/${mi.length})   balanced accuracy (strong vs clean) ${pct(bal, 1000)}`,
      );
    }
    for (const o of clean.filter(flagged).slice(0, 3))
      console.log(`      false alarm: ${o.name}: ${o.issues.join('; ')}`);
    for (const o of strong.filter((x) => !flagged(x)).slice(0, 6)) console.log(`      missed: ${o.name}`);
  }
  return met;
}
