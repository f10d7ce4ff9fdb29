import { describe, expect, it } from 'vitest';
import {
  cohenKappa,
  krippendorffAlphaNominal,
  pairwiseKappas,
  type RatingCell,
} from '../../../server/modules/reviews/agreement.ts';

/** Cells of a table written one row per rater, '.' for a unit that rater did not rate. */
function table(rows: Record<string, string[]>): RatingCell[] {
  const cells: RatingCell[] = [];
  for (const [rater, values] of Object.entries(rows)) {
    values.forEach((value, unit) => {
      if (value !== '.') cells.push({ unit: String(unit + 1), rater, value });
    });
  }
  return cells;
}

describe("Cohen's kappa", () => {
  it('matches the hand computation on a 10-image table with three categories', () => {
    // U usable, Q questionable, X unusable.
    //   A: U U U U U Q Q X X X
    //   B: U U U U Q Q X X X U
    // Alike on images 1-4 (U), 6 (Q), 8-9 (X): 7 of 10, p_o = 0.7.
    // Marginals A: U 5, Q 2, X 3; B: U 5, Q 2, X 3.
    // p_e = (5·5 + 2·2 + 3·3) / 10² = 38/100 = 0.38.
    // κ = (0.7 − 0.38) / (1 − 0.38) = 0.32 / 0.62 = 0.516129…
    const a = 'U U U U U Q Q X X X'.split(' ');
    const b = 'U U U U Q Q X X X U'.split(' ');
    const result = cohenKappa(a, b);
    expect(result.n).toBe(10);
    expect(result.observed).toBeCloseTo(0.7, 12);
    expect(result.kappa).toBeCloseTo(0.32 / 0.62, 12);
  });

  it('is −1 when two raters always disagree with balanced marginals', () => {
    // A: U U X X, B: X X U U. p_o = 0; p_e = (2·2 + 2·2)/16 = 0.5; κ = (0 − 0.5)/(1 − 0.5) = −1.
    expect(cohenKappa(['U', 'U', 'X', 'X'], ['X', 'X', 'U', 'U']).kappa).toBeCloseTo(-1, 12);
  });

  it('is 0 when agreement is exactly what chance gives', () => {
    // A: U U X X, B: U X U X. p_o = 2/4 = 0.5; p_e = (2·2 + 2·2)/16 = 0.5; κ = 0/0.5 = 0.
    expect(cohenKappa(['U', 'U', 'X', 'X'], ['U', 'X', 'U', 'X']).kappa).toBeCloseTo(0, 12);
  });

  it('is undefined (null) when both raters use one category only, or share no image', () => {
    // p_e = (3·3)/9 = 1: κ = 0/0.
    expect(cohenKappa(['U', 'U', 'U'], ['U', 'U', 'U'])).toEqual({ n: 3, observed: 1, kappa: null });
    expect(cohenKappa([], [])).toEqual({ n: 0, observed: 0, kappa: null });
  });

  it('refuses lists of different lengths', () => {
    expect(() => cohenKappa(['U'], [])).toThrow(RangeError);
  });
});

describe('pairwise kappas over a rating table with gaps', () => {
  it('pairs each two raters on the images both rated', () => {
    //          1 2 3 4 5 6
    //   ann:   U U X X Q .
    //   bob:   U U X U . Q
    //   cy:    . . . . Q Q
    // ann–bob share 1-4: U/U, U/U, X/X, X/U → p_o = 3/4;
    //   marginals ann U2 X2, bob U3 X1: p_e = (2·3 + 2·1)/16 = 0.5; κ = (0.75 − 0.5)/0.5 = 0.5.
    // ann–cy share 5: Q/Q → p_o = 1, p_e = 1 → κ undefined.
    // bob–cy share 6: Q/Q → the same, undefined.
    const pairs = pairwiseKappas(
      table({
        ann: 'U U X X Q .'.split(' '),
        bob: 'U U X U . Q'.split(' '),
        cy: '. . . . Q Q'.split(' '),
      }),
    );
    expect(pairs.map((p) => [p.raterA, p.raterB, p.n])).toEqual([
      ['ann', 'bob', 4],
      ['ann', 'cy', 1],
      ['bob', 'cy', 1],
    ]);
    expect(pairs[0]!.observed).toBeCloseTo(0.75, 12);
    expect(pairs[0]!.kappa).toBeCloseTo(0.5, 12);
    expect(pairs[1]!.kappa).toBeNull();
    expect(pairs[2]!.kappa).toBeNull();
  });
});

describe("Krippendorff's alpha (nominal)", () => {
  it('matches the hand computation on a small three-rater table', () => {
    // unit 1: U U U   unit 2: U U X   unit 3: Q Q   unit 4: X X U
    // Coincidences, each ordered pair of values in a unit weighing 1/(m − 1):
    //   unit 1 (m=3): 6 pairs U–U → o_UU += 3
    //   unit 2 (m=3): U–U ×2, U–X ×2, X–U ×2 → o_UU += 1, o_UX += 1, o_XU += 1
    //   unit 3 (m=2): Q–Q ×2 → o_QQ += 2
    //   unit 4 (m=3): X–X ×2, X–U ×2, U–X ×2 → o_XX += 1, o_XU += 1, o_UX += 1
    // o_UU 4, o_UX 2, o_XU 2, o_XX 1, o_QQ 2; n_U 6, n_X 3, n_Q 2; n = 11.
    // Σ_{c≠k} o_ck = 4; Σ_{c≠k} n_c·n_k = 11² − (6² + 3² + 2²) = 121 − 49 = 72.
    // α = 1 − (n − 1)·4/72 = 1 − 40/72 = 4/9 = 0.4444…
    const result = krippendorffAlphaNominal(
      table({
        r1: 'U U Q X'.split(' '),
        r2: 'U U Q X'.split(' '),
        r3: 'U X . U'.split(' '),
      }),
    );
    expect(result.units).toBe(4);
    expect(result.values).toBe(11);
    expect(result.alpha).toBeCloseTo(4 / 9, 12);
  });

  it("gives Krippendorff's published 0.743 on his four-observer example with missing data", () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C (nominal data):
    // unit 12 has one value and is left out; n = 40 pairable values; α_nominal = 0.743.
    const result = krippendorffAlphaNominal(
      table({
        A: '1 2 3 3 2 1 4 1 2 . . .'.split(' '),
        B: '1 2 3 3 2 2 4 1 2 5 . 3'.split(' '),
        C: '. 3 3 3 2 3 4 2 2 5 1 .'.split(' '),
        D: '1 2 3 3 2 4 4 1 2 5 1 .'.split(' '),
      }),
    );
    expect(result.units).toBe(11);
    expect(result.values).toBe(40);
    expect(result.alpha).toBeCloseTo(0.743, 3);
  });

  it('is 1 for perfect agreement over two categories, and undefined over one', () => {
    // unit 1: U U, unit 2: X X → Σ_{c≠k} o_ck = 0 → α = 1.
    expect(krippendorffAlphaNominal(table({ a: ['U', 'X'], b: ['U', 'X'] })).alpha).toBe(1);
    // Only U: Σ_{c≠k} n_c·n_k = 0 → 0/0, undefined.
    expect(krippendorffAlphaNominal(table({ a: ['U', 'U'], b: ['U', 'U'] })).alpha).toBeNull();
    // A unit rated once is not pairable: nothing counts.
    expect(krippendorffAlphaNominal(table({ a: ['U'] }))).toEqual({ units: 0, values: 0, alpha: null });
  });

  it('agrees with Cohen-style disagreement: two raters always crossing give a negative alpha', () => {
    // unit 1: U X, unit 2: X U. o_UX = o_XU = 2 (each ordered pair weighs 1/(2−1)), n_U = n_X = 2, n = 4.
    // Σ_{c≠k} n_c·n_k = 16 − 8 = 8. α = 1 − 3·4/8 = −0.5.
    expect(krippendorffAlphaNominal(table({ a: ['U', 'X'], b: ['X', 'U'] })).alpha).toBeCloseTo(-0.5, 12);
  });
});
