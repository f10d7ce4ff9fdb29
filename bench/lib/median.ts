/** The middle value (the upper one of an even count): what a benchmark reports over repeated rounds. */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1]!;
}
