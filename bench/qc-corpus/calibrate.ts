// The confidence calibration: for each side of the verdict (pass, or flagged), a monotone table of the
// probability that the verdict is right against how far the worst detector score is from its limit.
// Isotonic regression by pool-adjacent-violators, written here because it is twenty lines and no maintained
// npm package does it with the per-block smoothing needed below.
import type { ConfidenceStep } from '../../server/imaging/qc-detectors.ts';

/** A block of images pooled together: margins from `lo` to `hi`, `right` of `n` verdicts right. */
interface Block {
  lo: number;
  hi: number;
  right: number;
  n: number;
}

/**
 * The block's probability with one right and one wrong pseudo-verdict added (a uniform prior): a block of ten
 * right verdicts says 92%, not 100%, and the smaller a block the nearer 50% it stays.
 */
const smoothed = (b: Block) => (b.right + 1) / (b.n + 2);

/**
 * Fits P(verdict right | margin) as a non-decreasing step function of the margin (the distance of the worst
 * score from its limit, ≥ 0 on both sides): equal margins are pooled, then adjacent blocks are pooled while
 * the smoothed probability does not rise from one to the next or a block holds fewer than `minBlock` images
 * (one or two images near the limit say little: alone, a single miss would put a pass at 33%). Each step
 * holds from its `from` margin on (halfway between the neighbouring blocks' images; the first from 0).
 */
export function fitConfidence(margins: number[], right: boolean[], minBlock = 20): ConfidenceStep[] {
  const order = margins.map((_, i) => i).sort((i, j) => margins[i]! - margins[j]!);
  const stack: Block[] = [];
  const pool = (last: boolean) => {
    for (;;) {
      const top = stack.at(-1)!;
      const prev = stack.at(-2);
      if (!prev || (smoothed(prev) < smoothed(top) && prev.n >= minBlock && (!last || top.n >= minBlock))) return;
      stack.pop();
      prev.hi = top.hi;
      prev.right += top.right;
      prev.n += top.n;
    }
  };
  for (const i of order) {
    const m = margins[i]!;
    const top = stack.at(-1);
    if (top && top.hi === m) {
      top.n++;
      top.right += right[i] ? 1 : 0;
    } else stack.push({ lo: m, hi: m, right: right[i] ? 1 : 0, n: 1 });
    pool(false);
  }
  if (stack.length) pool(true);
  return stack.map((b, k) => ({
    from: k === 0 ? 0 : (stack[k - 1]!.hi + b.lo) / 2,
    p: smoothed(b),
    right: b.right,
    n: b.n,
  }));
}
