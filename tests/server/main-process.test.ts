import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connect.ts';
import { contactMessages } from '../../server/modules/contact/contact.table.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${env.PORT}/api/v1/health`;
  for (let i = 0; i < 150; i++) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, exited };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

describe('the server process', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'imageqc-main-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('exits non-zero with one line naming a bad variable', () => {
    const result = spawnSync(process.execPath, ['server/main.ts'], {
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual(['Configuration error: PORT: expected a whole number, got "abc"']);
  });

  it('exits non-zero naming DATABASE_URL when the database cannot be reached', () => {
    const result = spawnSync(process.execPath, ['server/main.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody:x@127.0.0.1:1/none' },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr.trim()).toMatch(/^Configuration error: DATABASE_URL: cannot open the database/);
  });

  it('stops gracefully on SIGTERM and keeps its data for the next start', async () => {
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), DIST_DIR: path.join(dataDir, 'none') };
    const first = await startServer(env);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const db = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    await db.db.execute(
      sql`insert into contact_messages (full_name, email, message) values ('Ada', 'ada@example.org', 'kept')`,
    );
    await db.close();

    const second = await startServer(env);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);

    const again = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    const rows = await again.db.select({ message: contactMessages.message }).from(contactMessages);
    await again.close();
    expect(rows.map((r) => r.message)).toEqual(['kept']);
  }, 60_000);
});
