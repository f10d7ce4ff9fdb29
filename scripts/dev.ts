// `npm run dev`: astro dev (which proxies /api) and the API server, restarted when its sources change.
import { spawn } from 'node:child_process';

const children = [
  spawn('node', ['--watch-path=server', '--watch-path=contract', 'server/main.ts'], { stdio: 'inherit' }),
  spawn('npx', ['astro', 'dev'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && code !== 0 && stop());
