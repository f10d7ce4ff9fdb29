/** What pileUp (image-stats.ts) finds of the voxels of a mask, tallied in a pass the caller makes anyway. */
export interface PileUpTally {
  n: number;
  min: number;
  max: number;
  /** How many voxels hold `max`. */
  atMax: number;
}

/** Adds `v` to the tally. */
export function tally(t: PileUpTally, v: number): void {
  t.n++;
  if (v > t.max) {
    t.max = v;
    t.atMax = 1;
  } else if (v === t.max) t.atMax++;
  if (v < t.min) t.min = v;
}

/** pileUp's share from a tally: the voxels at the largest value when at least two, all when all are one value. */
export function pileUpShare({ n, min, max, atMax }: PileUpTally): number {
  if (n === 0) return 0;
  if (max <= min) return n >= 2 ? 1 : 0;
  return (atMax >= 2 ? atMax : 0) / n;
}
