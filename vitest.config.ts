import { getViteConfig } from 'astro/config';

/** Server tests whose assertions are latencies, run in a group of their own. */
const timingTests = ['tests/server/decompression-bombs.test.ts', 'tests/server/previews-off-thread.test.ts'];

export default getViteConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: [...timingTests],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Tests that judge the server's latency run after every other file, alone: on two cores a neighbouring
        // test file's turn on the CPU delayed /health by 200-300 ms whatever the server itself was doing.
        extends: true,
        test: {
          name: 'server-timing',
          include: [...timingTests],
          environment: 'node',
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
