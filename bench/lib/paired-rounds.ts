/**
 * Measures two sides `rounds` times in pairs, alternating which goes first (the first key of `sides` in
 * the first round), so a drift in this machine's speed moves both sides of a pair instead of the result.
 */
export async function pairedRounds<K extends string, T>(
  rounds: number,
  sides: Record<K, () => Promise<T>>,
): Promise<Record<K, T>[]> {
  const keys = Object.keys(sides) as K[];
  if (keys.length !== 2) throw new Error('pairedRounds compares exactly two sides');
  const pairs: Record<K, T>[] = [];
  for (let i = 0; i < rounds; i++) {
    const pair = {} as Record<K, T>;
    for (const key of i % 2 === 0 ? keys : [...keys].reverse()) pair[key] = await sides[key]();
    pairs.push(pair);
  }
  return pairs;
}
