// Square dilation and erosion of 0/1 masks on packed bits, 32 voxels a word: the MR head mask closes, grows
// and shrinks its masks several times a check, and a row of a 256-wide slice is 8 words, so each step is a
// few word operations a row where a byte mask takes one per voxel. Same results as dilate (mask.ts) and its
// complement, to the bit.

/** A mask packed row by row: bit x % 32 of word x >> 5 of each row, rows of all slices in order. */
export interface MaskBits {
  bits: Int32Array;
  /** Words per row. */
  words: number;
  width: number;
  height: number;
  slices: number;
}

/** Packs the 0/1 (any non-zero is 1) mask of `slices` slices of width × height. */
export function packMask(mask: Uint8Array, width: number, height: number): MaskBits {
  const plane = width * height;
  const slices = plane ? Math.floor(mask.length / plane) : 0;
  const words = (width + 31) >> 5;
  const bits = new Int32Array(words * height * slices);
  // Each word is gathered in a register, 32 voxels (fewer at the row's end) without a branch.
  for (let row = 0, rows = height * slices; row < rows; row++) {
    const base = row * width,
      w0 = row * words;
    for (let k = 0; k < words; k++) {
      const from = base + 32 * k,
        n = Math.min(32, width - 32 * k);
      let word = 0;
      for (let b = 0; b < n; b++) word |= (mask[from + b]! ? 1 : 0) << b;
      bits[w0 + k] = word;
    }
  }
  return { bits, words, width, height, slices };
}

/** Writes the mask back as 0/1 bytes into `out` (the complement with `invert`); returns how many are 1. */
export function unpackMask(m: MaskBits, out: Uint8Array, invert = false): number {
  const { bits, words, width } = m;
  const flip = invert ? 1 : 0;
  let ones = 0;
  for (let row = 0, rows = m.height * m.slices; row < rows; row++) {
    const base = row * width,
      w0 = row * words;
    for (let x = 0; x < width; x++) {
      const v = ((bits[w0 + (x >> 5)]! >>> (x & 31)) & 1) ^ flip;
      out[base + x] = v;
      ones += v;
    }
  }
  return ones;
}

/**
 * The mask grown (`erode` false) or shrunk (`erode` true) by a square of `radius` voxels in-plane, slice by
 * slice. Growing treats what lies outside the image as unset, shrinking as set, as dilate (mask.ts) and the
 * complement of dilating the complement do. Rows first, one voxel at a time `radius` times (carries across
 * words), then columns as the OR (AND) of the rows within `radius`.
 */
export function morphBits(m: MaskBits, radius: number, erode: boolean): MaskBits {
  const { words, width, height, slices } = m;
  const rows = new Int32Array(m.bits);
  // Bits past the width in each row's last word: held at what lies outside the image.
  const tail = width & 31 ? -1 << (width & 31) : 0;
  const outside = erode ? -1 : 0;
  for (let row = 0, all = height * slices; row < all; row++) {
    const w0 = row * words,
      last = w0 + words - 1;
    for (let step = 0; step < radius; step++) {
      if (erode) rows[last]! |= tail;
      else rows[last]! &= ~tail;
      // Left to right, keeping the word before this one as it was before the step.
      let before = outside;
      for (let k = w0; k <= last; k++) {
        const here = rows[k]!;
        const after = k < last ? rows[k + 1]! : outside;
        const left = (here << 1) | (before >>> 31);
        const right = (here >>> 1) | (after << 31);
        rows[k] = erode ? here & left & right : here | left | right;
        before = here;
      }
    }
    rows[last]! &= ~tail;
  }
  if (radius === 0) return { ...m, bits: rows };
  const bits = new Int32Array(rows.length);
  for (let z = 0; z < slices; z++) {
    const o = z * height * words;
    for (let y = 0; y < height; y++) {
      const first = o + Math.max(0, y - radius) * words,
        end = o + Math.min(height - 1, y + radius) * words,
        here = o + y * words;
      for (let k = 0; k < words; k++) {
        let v = rows[first + k]!;
        if (erode) for (let r = first + words + k; r <= end + k; r += words) v &= rows[r]!;
        else for (let r = first + words + k; r <= end + k; r += words) v |= rows[r]!;
        bits[here + k] = v;
      }
    }
  }
  return { ...m, bits };
}
