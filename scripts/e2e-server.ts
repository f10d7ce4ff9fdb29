// Starts the real server for the browser tests on a wiped data folder, so every run begins empty.
import { rmSync } from 'node:fs';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !dataDir.includes('e2e-data')) throw new Error('DATA_DIR must be the e2e data folder');
rmSync(dataDir, { recursive: true, force: true });
await import('../server/main.ts');
