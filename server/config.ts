import path from 'node:path';

/** The server's whole configuration, read once from the environment at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  storageUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicSiteUrl: string;
  llm: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  uploadMaxBytes: number;
  /** Most bytes a workspace's images may take in storage, unless the workspace has its own quota. */
  workspaceQuotaBytes: number;
  /** Most bytes all uploads being received may hold in memory together (DICOM de-identified whole, series parts). */
  uploadMemoryBytes: number;
  /** Uploads (single files and series) one signed-in account may start per minute. */
  uploadRatePerMinute: number;
  redisUrl: string | undefined;
  sessionIdleHours: number;
  sessionMaxDays: number;
  /** Folder of the built static site; served when it exists. */
  distDir: string;
  logLevel: string;
  /**
   * Which hops' X-Forwarded-For to believe: false (TRUST_PROXY unset) trusts none, so the client address is
   * the socket's; a number trusts that many proxies in front; a list trusts those addresses or ranges.
   */
  trustProxy: false | number | string[];
  /** Strict-Transport-Security max-age sent on answers over HTTPS (seen directly or from a trusted proxy); 0 sends none. */
  hstsMaxAge: number;
  /** AES-256 key that seals TOTP secrets in the database; undefined keeps them unsealed (server-only). */
  mfaEncryptionKey: Buffer | undefined;
}

/** A configuration value that cannot be used; its message names the variable. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${raw}`);
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/** MFA_ENCRYPTION_KEY: 32 bytes, written as 64 hex digits or in base64. */
function key32(env: Env, name: string): Buffer | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const bytes = /^[\da-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32 || (!/^[\da-f]{64}$/i.test(raw) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(raw))) {
    throw new ConfigError(name, 'must be 32 bytes, written as 64 hex digits or in base64 (openssl rand -hex 32)');
  }
  return bytes;
}

const ADDRESS_OR_RANGE = /^(?:[\d.]+|[\da-f:.]+)(?:\/\d{1,3})?$/i;

/** TRUST_PROXY: unset trusts nobody; a hop count; or a comma-separated list of addresses and CIDR ranges. */
function trustProxy(env: Env): false | number | string[] {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 20) || false;
  const entries = raw.split(',').map((entry) => entry.trim());
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    if (!named.has(entry) && !ADDRESS_OR_RANGE.test(entry)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `expected a number of proxies or a comma-separated list of addresses, got "${entry}"`,
      );
    }
  }
  return entries;
}

/**
 * Reads and validates every variable of the configuration table; throws ConfigError on the first bad one.
 * @example loadConfig({ PORT: '9000' }).port // 9000
 */
export function loadConfig(env: Env = process.env): Config {
  const host = text(env, 'HOST') ?? '127.0.0.1';
  const port = integer(env, 'PORT', 8787, 0, 65535);
  const dataDir = path.resolve(text(env, 'DATA_DIR') ?? './data');
  const mailFrom = text(env, 'MAIL_FROM') ?? 'no-reply@localhost';
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(mailFrom)) throw new ConfigError('MAIL_FROM', 'is not an e-mail address');
  const llmBaseUrl = url(env, 'LLM_BASE_URL', ['http:', 'https:']);
  const publicSiteUrl = (url(env, 'PUBLIC_SITE_URL', ['http:', 'https:']) ?? `http://${host}:${port}`).replace(
    /\/+$/,
    '',
  );
  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', 'must be one of fatal, error, warn, info, debug, trace, silent');
  }
  return {
    host,
    port,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    storageUrl: url(env, 'STORAGE_URL', ['s3:']),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    publicSiteUrl,
    llm: llmBaseUrl
      ? {
          baseUrl: llmBaseUrl.replace(/\/+$/, ''),
          apiKey: text(env, 'LLM_API_KEY'),
          model: text(env, 'LLM_MODEL') ?? 'default',
        }
      : undefined,
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    workspaceQuotaBytes: integer(env, 'WORKSPACE_QUOTA_BYTES', 1024 ** 4, 0, Number.MAX_SAFE_INTEGER),
    uploadMemoryBytes: integer(env, 'UPLOAD_MEMORY_BUDGET_BYTES', 1024 ** 3, 1024 * 1024, Number.MAX_SAFE_INTEGER),
    uploadRatePerMinute: integer(env, 'UPLOAD_RATE_PER_MINUTE', 120, 1, 1_000_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    sessionIdleHours: integer(env, 'SESSION_IDLE_HOURS', 12, 1, 24 * 365),
    sessionMaxDays: integer(env, 'SESSION_MAX_DAYS', 7, 1, 365),
    distDir: path.resolve(text(env, 'DIST_DIR') ?? './dist'),
    logLevel,
    trustProxy: trustProxy(env),
    hstsMaxAge: integer(env, 'HSTS_MAX_AGE', 31_536_000, 0, 2 * 31_536_000),
    mfaEncryptionKey: key32(env, 'MFA_ENCRYPTION_KEY'),
  };
}
