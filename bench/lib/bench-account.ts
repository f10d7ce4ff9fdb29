// A verified, signed-in account on a benchmark's API server, made through the real API and outbox.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const password = 'Bench-Password-2026!';

async function verificationToken(dataDir: string, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const folder = path.join(dataDir, 'outbox');
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const text = (await readFile(path.join(folder, name), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      if (!text.includes(email)) continue;
      const token = text.match(/verify-email\?token=([A-Za-z0-9_%-]+)/)?.[1];
      if (token) return decodeURIComponent(token);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no verification mail for ${email}`);
}

/** Registers, verifies and signs in; returns the bearer token. */
export async function benchAccount(baseUrl: string, dataDir: string): Promise<string> {
  const email = `bench-${Date.now()}@example.org`;
  const api = `${baseUrl}/api/v1`;
  const json = { 'content-type': 'application/json' };
  const registered = await fetch(`${api}/auth/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ name: 'Bench', email, password, organization: null }),
  });
  if (!registered.ok) throw new Error(`register: ${registered.status}`);
  const token = await verificationToken(dataDir, email);
  const verified = await fetch(`${api}/auth/verify/${encodeURIComponent(token)}`);
  if (!verified.ok) throw new Error(`verify: ${verified.status}`);
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login: ${login.status}`);
  return ((await login.json()) as { access_token: string }).access_token;
}
