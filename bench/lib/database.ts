// Which database the API servers a benchmark starts use: the embedded PGlite of a fresh data folder, or the
// PostgreSQL named by BENCH_DATABASE_URL (as deployed at scale).

/** Environment for a benchmark's API server: DATABASE_URL when BENCH_DATABASE_URL is set, else nothing. */
export const databaseEnv: Record<string, string> = process.env.BENCH_DATABASE_URL
  ? { DATABASE_URL: process.env.BENCH_DATABASE_URL }
  : {};

/** The database, named for the printed figures. */
export const databaseLabel = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
