import { rangeOf, type MeasureContext, type Measures } from './context.ts';
import { blockStats, blurEffect, pick, quantile } from './image-stats.ts';
import { pileUpShare, tally, type PileUpTally } from './pile-up.ts';
import { scratchUint8 } from './scratch.ts';

/**
 * Ultrasound: the imaged sector (non-black after the scanner's dark surround), gain as its mean
 * brightness within the range, speckle SNR (mean over SD of homogeneous blocks; 1.91 for fully developed
 * speckle), depth coverage (share of the sector's depth whose rows keep a quarter of the shallow brightness),
 * noise floor, saturation and blur.
 */
export function ultrasoundMeasures(c: MeasureContext): Measures {
  const { values, width, height } = c;
  const [low, high] = rangeOf(c);
  const span = high - low;
  // A work buffer: the sector is read only while the measures are taken.
  const sector = scratchUint8('ultrasound-sector', values.length).fill(0);
  const blocks = blockStats(values, width, height, 8);
  const bx = Math.floor(width / 8),
    by = Math.floor(height / 8);
  // Sector blocks: any texture at all (speckle), whatever their brightness.
  for (let k = 0, j = 0; j < by; j++)
    for (let i = 0; i < bx; i++, k++) {
      if (!(blocks.sd[k]! > span * 0.004)) continue;
      for (let y = j * 8; y < j * 8 + 8; y++) for (let v = y * width + i * 8, end = v + 8; v < end; v++) sector[v] = 1;
    }
  const textured = (k: number) => blocks.sd[k]! > span * 0.004;
  const ratios: number[] = [];
  for (let k = 0; k < blocks.count; k++) if (textured(k)) ratios.push((blocks.mean[k]! - low) / blocks.sd[k]!);
  // Depth profile: row means of the sector, top (transducer) to bottom. The same pass (in scan order, as a
  // list of the sector's values would be summed) tallies the sector's size, sum and pile-up at the top.
  const rows: number[] = [];
  const lit = low + span * 0.02;
  const top: PileUpTally = { n: 0, min: Infinity, max: -Infinity, atMax: 0 };
  let sum = 0;
  for (let y = 0; y < height; y++) {
    let s = 0,
      m = 0;
    for (let i = y * width, end = i + width; i < end; i++) {
      const v = values[i]!;
      const inside = sector[i] === 1;
      if (inside) {
        sum += v;
        tally(top, v);
      }
      if (inside || v > lit) {
        s += v - low;
        m++;
      }
    }
    rows.push(m ? s / m : 0);
  }
  const mean = top.n ? sum / top.n : 0;
  const shallow = quantile(rows.slice(0, Math.max(1, Math.floor(height / 3))), 75);
  const litRows = rows.filter((r) => r > shallow * 0.25).length;
  const lastLit = rows.reduce((last, r, y) => (r > shallow * 0.25 ? y : last), 0);
  return {
    gain: top.n ? (mean - low) / span : 0,
    speckle_snr: ratios.length ? quantile(ratios, 50) : 0,
    depth_coverage: height ? (lastLit + 1) / height : 0,
    lit_rows: height ? litRows / height : 0,
    noise_floor: mean > low ? (quantile(pick(blocks.mean, textured), 5) - low) / (mean - low) : 0,
    saturation: pileUpShare(top),
    blur: blurEffect(values, width, height, sector),
  };
}
