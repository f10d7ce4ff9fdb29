import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/connect.ts';
import { openStorage } from './storage/open-storage.ts';

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`);
    throw error;
  }
}

async function connect(config: Config): Promise<DatabaseHandle> {
  try {
    return await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause ?? (error as Error);
    const reason = (cause.message || String(cause)).split('\n')[0];
    fail(
      `Configuration error: ${config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR'}: cannot open the database (${reason})`,
    );
  }
}

const config = readConfig();
const storage = openStorage(config);
try {
  await storage.check();
} catch (error) {
  fail(
    `Configuration error: ${config.storageUrl ? 'STORAGE_URL' : 'DATA_DIR'}: storage is not writable (${(error as Error).message})`,
  );
}
const database = await connect(config);
const app = await buildApp(config, { db: database.db, storage });

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  // A request stuck for longer than this must not keep the process (and the database lock) forever.
  const force = setTimeout(() => fail('Shutdown timed out'), 20_000);
  force.unref();
  try {
    await app.close();
    await database.close();
  } finally {
    clearTimeout(force);
  }
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Ready at http://${config.host}:${config.port} (database: ${database.engine})`);
} catch (error) {
  await database.close();
  fail(`Configuration error: PORT: cannot listen on ${config.host}:${config.port} (${(error as Error).message})`);
}
