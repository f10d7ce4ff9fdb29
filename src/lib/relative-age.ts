const units: [suffix: string, seconds: number][] = [
  ['y', 365 * 86_400],
  ['mo', 30 * 86_400],
  ['w', 7 * 86_400],
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
];

/**
 * How long ago an epoch-seconds moment was, in the largest whole unit of s, m, h, d, w, mo, y (SPEC §9).
 * @example relativeAge(1_700_000_000, 1_700_000_000_000 + 90_000) // '1m ago'
 */
export function relativeAge(epochSeconds: number, nowMs: number): string {
  const elapsed = Math.max(0, Math.floor(nowMs / 1000 - epochSeconds));
  for (const [suffix, size] of units) {
    if (elapsed >= size) return `${Math.floor(elapsed / size)}${suffix} ago`;
  }
  return `${elapsed}s ago`;
}
