/**
 * Inter-rater agreement on nominal ratings: Cohen's kappa for two raters, Krippendorff's alpha for any
 * number of raters with missing ratings. Pure functions over plain arrays; no npm package computes these
 * from our tables without pulling a statistics framework, and each is a few lines of textbook arithmetic.
 */

/** One rating in a table: which unit (image), who rated it, and the category chosen. */
export interface RatingCell {
  unit: string;
  rater: string;
  value: string;
}

/** Agreement of two raters on the units both rated. */
export interface PairAgreement {
  /** How many units both rated. */
  n: number;
  /** Share of those units rated alike, 0–1. */
  observed: number;
  /** Cohen's kappa; null when it is undefined (no shared unit, or chance agreement is 1). */
  kappa: number | null;
}

/**
 * Cohen's kappa of two equally long lists of categories, paired by position.
 * @example cohenKappa(['a', 'a', 'b', 'b'], ['a', 'a', 'b', 'b']) // { n: 4, observed: 1, kappa: 1 }
 */
export function cohenKappa(first: readonly string[], second: readonly string[]): PairAgreement {
  if (first.length !== second.length) throw new RangeError('Both raters must rate the same units');
  const n = first.length;
  if (n === 0) return { n: 0, observed: 0, kappa: null };
  const countsA = new Map<string, number>();
  const countsB = new Map<string, number>();
  let agree = 0;
  for (let i = 0; i < n; i += 1) {
    const a = first[i]!;
    const b = second[i]!;
    if (a === b) agree += 1;
    countsA.set(a, (countsA.get(a) ?? 0) + 1);
    countsB.set(b, (countsB.get(b) ?? 0) + 1);
  }
  const observed = agree / n;
  let expected = 0;
  for (const [category, countA] of countsA) expected += (countA / n) * ((countsB.get(category) ?? 0) / n);
  // Both raters used one and the same category throughout: chance explains everything, kappa is 0/0.
  if (expected >= 1) return { n, observed, kappa: null };
  return { n, observed, kappa: (observed - expected) / (1 - expected) };
}

/** Cohen's kappa of one pair of raters in a rating table. */
export interface RaterPairAgreement extends PairAgreement {
  raterA: string;
  raterB: string;
}

/**
 * Cohen's kappa for every pair of raters over the units both rated, raters in sorted order. A rater who
 * rated a unit twice counts with the last cell given.
 */
export function pairwiseKappas(cells: readonly RatingCell[]): RaterPairAgreement[] {
  const byRater = new Map<string, Map<string, string>>();
  for (const cell of cells) {
    const units = byRater.get(cell.rater) ?? new Map<string, string>();
    units.set(cell.unit, cell.value);
    byRater.set(cell.rater, units);
  }
  const raters = [...byRater.keys()].sort();
  const pairs: RaterPairAgreement[] = [];
  for (let i = 0; i < raters.length; i += 1) {
    for (let j = i + 1; j < raters.length; j += 1) {
      const a = byRater.get(raters[i]!)!;
      const b = byRater.get(raters[j]!)!;
      const first: string[] = [];
      const second: string[] = [];
      for (const [unit, value] of a) {
        const other = b.get(unit);
        if (other === undefined) continue;
        first.push(value);
        second.push(other);
      }
      pairs.push({ raterA: raters[i]!, raterB: raters[j]!, ...cohenKappa(first, second) });
    }
  }
  return pairs;
}

/** Krippendorff's alpha of a whole table. */
export interface TableAgreement {
  /** Units rated by at least two raters (the only ones that count). */
  units: number;
  /** Ratings in those units (the n of the coincidence matrix). */
  values: number;
  /** Krippendorff's alpha for nominal data; null when undefined (fewer than two values, or one category only). */
  alpha: number | null;
}

/**
 * Krippendorff's alpha for nominal data, any number of raters, missing ratings allowed: units rated once
 * are left out, as the coincidence matrix requires. α = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c · n_k.
 * @example krippendorffAlphaNominal([{unit:'1',rater:'a',value:'x'},{unit:'1',rater:'b',value:'x'}]) // alpha null: one category
 */
export function krippendorffAlphaNominal(cells: readonly RatingCell[]): TableAgreement {
  const byUnit = new Map<string, Map<string, string>>();
  for (const cell of cells) {
    const raters = byUnit.get(cell.unit) ?? new Map<string, string>();
    raters.set(cell.rater, cell.value);
    byUnit.set(cell.unit, raters);
  }
  let disagreeing = 0; // Σ_{c≠k} o_ck
  const totals = new Map<string, number>(); // n_c
  let units = 0;
  for (const raters of byUnit.values()) {
    const m = raters.size;
    if (m < 2) continue;
    units += 1;
    const counts = new Map<string, number>();
    for (const value of raters.values()) counts.set(value, (counts.get(value) ?? 0) + 1);
    // Ordered pairs of different values in the unit: m² − Σ count², each weighing 1/(m − 1).
    let same = 0;
    for (const [value, count] of counts) {
      same += count * count;
      totals.set(value, (totals.get(value) ?? 0) + count);
    }
    disagreeing += (m * m - same) / (m - 1);
  }
  let n = 0;
  let squares = 0;
  for (const count of totals.values()) {
    n += count;
    squares += count * count;
  }
  const expectedPairs = n * n - squares; // Σ_{c≠k} n_c · n_k
  if (n < 2 || expectedPairs === 0) return { units, values: n, alpha: null };
  return { units, values: n, alpha: 1 - ((n - 1) * disagreeing) / expectedPairs };
}
