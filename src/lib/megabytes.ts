/**
 * Bytes as megabytes with two decimals (bytes / 1024 / 1024, SPEC §9).
 * @example formatMegabytes(1_572_864) // '1.50 MB'
 */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}
