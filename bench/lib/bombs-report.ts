// The table `npm run bench -- bombs` prints: per attack, the longest health answer, RSS peak over baseline
// and bytes stored per byte sent, each against issue 35's targets.
import type { WatchFigures } from './server-watch.ts';

/** Longest health answer allowed during any attack. */
export const HEALTH_TARGET_MS = 100;
/** RSS growth allowed during any attack. */
export const RSS_TARGET_BYTES = 256 * 1024 * 1024;

/** What one attack did. */
export interface AttackResult {
  label: string;
  watch: WatchFigures;
  /** Longest health answer of the idle server in the 2 s before the attack: the machine's own noise. */
  quietMs: number;
  sentBytes: number;
  storedBytes: number;
  /** Status codes answered, or why a request got none ("reset", "timeout"). */
  answers: (number | string)[];
  seconds: number;
  /** Set when the benchmark had to stop the server (RSS past BOMBS_RSS_CAP_MB). */
  stopped?: string;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** "201", "413 ×3", "201, 500": the answers counted by kind, in order of first appearance. */
export function answerSummary(answers: (number | string)[]): string {
  const counts = new Map<number | string, number>();
  for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
  return [...counts].map(([a, n]) => (n > 1 ? `${a} ×${n}` : String(a))).join(', ') || '-';
}

/** One printed line of an attack's figures, PASS or MISS beside each target. */
export function resultLine(r: AttackResult): string {
  const growth = Math.max(0, r.watch.peakRssBytes - r.watch.baselineRssBytes);
  const verdict = r.watch.longestHealthMs < HEALTH_TARGET_MS ? 'PASS' : 'MISS';
  const health = `${r.watch.longestHealthMs.toFixed(0).padStart(6)} ms ${verdict} (idle ${r.quietMs.toFixed(0).padStart(3)})`;
  const rss = `${mb(growth).padStart(5)} MB ${growth < RSS_TARGET_BYTES ? 'PASS' : 'MISS'}`;
  const ratio = r.sentBytes ? (r.storedBytes / r.sentBytes).toPrecision(3) : '-';
  const fivexx = r.answers.some((a) => typeof a === 'number' && a >= 500) ? '  (5xx!)' : '';
  return (
    `${r.label.padEnd(58)} ${health}  ${rss}  ${ratio.padStart(9)}  ${r.seconds.toFixed(1).padStart(6)} s  ` +
    `${answerSummary(r.answers)}${fivexx}${r.stopped ? `  [${r.stopped}]` : ''}`
  );
}

/** The header of the table. */
export const tableHeader =
  `${'attack'.padEnd(58)} ${'longest health (idle before)'.padStart(27)}  ${'RSS over base'.padStart(13)}  ${'stored/sent'.padStart(9)}  ` +
  `${'time'.padStart(8)}  answers\n` +
  `${''.padEnd(58)} ${`(< ${HEALTH_TARGET_MS} ms)`.padStart(27)}  ${`(< ${mb(RSS_TARGET_BYTES)} MB)`.padStart(13)}`;
