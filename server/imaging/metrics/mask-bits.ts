// Square dilation and erosion of 0/1 masks on packed bits, 32 voxels a word: the MR head mask closes, grows
// and shrinks its masks several times a check, and a row of a 256-wide slice is 8 words, so each step is a
// few word operations a row where a byte mask takes one per voxel. Same results as dilate (mask.ts) and its
// complement, to the bit.
import { scratchInt32 } from './scratch.ts';

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
  // Each word is gathered in a register, 32 voxels (fewer at the row's end) without a branch: -m >>> 31 is
  // 1 for a byte m of 1 to 255 and 0 for 0.
  for (let row = 0, rows = height * slices; row < rows; row++) {
    const base = row * width,
      w0 = row * words;
    for (let k = 0; k < words; k++) {
      const from = base + 32 * k,
        n = Math.min(32, width - 32 * k);
      let word = 0;
      for (let b = 0; b < n; b++) word |= (-mask[from + b]! >>> 31) << b;
      bits[w0 + k] = word;
    }
  }
  return { bits, words, width, height, slices };
}

/** The bits of a row's last word that lie within `width` (all 32 when the width is a multiple of 32). */
export function lastWordBits(width: number): number {
  return width & 31 ? ~(-1 << (width & 31)) : -1;
}

/** The bits of word `k` of a packed row that lie in columns [x0, x1) (x0 < x1, word k within them). */
function spanBits(k: number, x0: number, x1: number): number {
  const lo = k === x0 >> 5 ? x0 & 31 : 0,
    hi = k === (x1 - 1) >> 5 ? ((x1 - 1) & 31) + 1 : 32;
  return (hi === 32 ? -1 : (1 << hi) - 1) & (-1 << lo);
}

/** How many bits [x0, x1) of the packed row starting at word `w0` hold. */
export function setBitsIn(bits: Int32Array, w0: number, x0: number, x1: number): number {
  let n = 0;
  for (let k = x0 >> 5, last = (x1 - 1) >> 5; k <= last; k++) n += ones32(bits[w0 + k]! & spanBits(k, x0, x1));
  return n;
}

/** Whether bits [x0, x1) of the packed row starting at word `w0` are all set (ended at the first word not). */
export function allBitsSet(bits: Int32Array, w0: number, x0: number, x1: number): boolean {
  for (let k = x0 >> 5, last = (x1 - 1) >> 5; k <= last; k++) {
    const want = spanBits(k, x0, x1);
    if ((bits[w0 + k]! & want) !== want) return false;
  }
  return true;
}

/** Set bits of a 32-bit word (its population count). */
export function ones32(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/**
 * Four 0/1 bytes for each 4-bit pattern, as one 32-bit word in the platform's byte order: unpacking writes
 * a word of bytes per four voxels instead of a byte per voxel.
 */
const NIBBLE_BYTES = (() => {
  const bytes = new Uint8Array(64);
  for (let v = 0; v < 16; v++) for (let b = 0; b < 4; b++) bytes[4 * v + b] = (v >> b) & 1;
  return new Uint32Array(bytes.buffer);
})();

/** Writes the mask back as 0/1 bytes into `out` (the complement with `invert`); returns how many are 1. */
export function unpackMask(m: MaskBits, out: Uint8Array, invert = false): number {
  const { bits, words, width } = m;
  const rows = m.height * m.slices;
  const flip = invert ? -1 : 0;
  // Bits of each row's last word that lie within the width (bits past it are never set, but are flipped).
  const lastValid = lastWordBits(width);
  let ones = 0;
  if ((width & 3) === 0 && (out.byteOffset & 3) === 0) {
    // Rows of whole 4-byte words: each word of bits is written as up to eight words of bytes.
    const to = new Uint32Array(out.buffer, out.byteOffset, (rows * width) >> 2);
    const quads = width >> 2;
    for (let row = 0; row < rows; row++) {
      const w0 = row * words,
        q0 = row * quads;
      for (let k = 0; k < words; k++) {
        const word = bits[w0 + k]! ^ flip;
        ones += ones32(k === words - 1 ? word & lastValid : word);
        const q = q0 + 8 * k,
          n = Math.min(8, quads - 8 * k);
        for (let j = 0; j < n; j++) to[q + j] = NIBBLE_BYTES[(word >>> (4 * j)) & 15]!;
      }
    }
    return ones;
  }
  for (let row = 0; row < rows; row++) {
    const base = row * width,
      w0 = row * words;
    for (let x = 0; x < width; x++) {
      const v = ((bits[w0 + (x >> 5)]! ^ flip) >>> (x & 31)) & 1;
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
  // The row pass's result lives only until the column pass has read it.
  const rows = radius === 0 ? new Int32Array(m.bits) : scratchInt32('morph-rows', m.bits.length);
  rows.set(m.bits);
  // Bits past the width in each row's last word: held at what lies outside the image.
  const tail = ~lastWordBits(width);
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
