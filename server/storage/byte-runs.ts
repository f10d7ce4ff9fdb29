/** The total length of `runs`. */
export const byteLength = (runs: readonly Uint8Array[]) => runs.reduce((sum, run) => sum + run.length, 0);

/** `runs` laid end to end in one new array; `size` is their total length when the caller knows it. */
export function joinBytes(runs: readonly Uint8Array[], size = byteLength(runs)): Uint8Array {
  const out = new Uint8Array(size);
  copyBytes(runs, 0, out, size);
  return out;
}

/** Copies `length` bytes of `runs`, laid end to end, starting `from` bytes in, to the start of `into`. */
export function copyBytes(runs: readonly Uint8Array[], from: number, into: Uint8Array, length: number): void {
  let skip = from;
  let at = 0;
  for (const run of runs) {
    if (at === length) return;
    if (skip >= run.length) {
      skip -= run.length;
      continue;
    }
    const piece = run.subarray(skip, skip + length - at);
    into.set(piece, at);
    at += piece.length;
    skip = 0;
  }
}
