import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { gzipSync } from 'node:zlib';
import { createVerifiedAccount, STRONG_PASSWORD, uniqueEmail } from './auth-helpers.ts';

/** A verified account signed in through the API. */
export interface SignedInAccount {
  email: string;
  name: string;
  token: string;
  userId: string;
}

/** Registers, verifies (through the mailed link) and signs in a new account through the real API. */
export async function signedInAccount(request: APIRequestContext, name = 'Marie Curie'): Promise<SignedInAccount> {
  const email = uniqueEmail('dash');
  await createVerifiedAccount(request, email, name);
  return { ...(await logIn(request, email)), name };
}

/** A fresh session (token) for an existing account. */
export async function logIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/v1/auth/login', { data: { email, password: STRONG_PASSWORD } });
  if (res.status() !== 200) throw new Error(`login answered ${res.status()}`);
  const body = (await res.json()) as { access_token: string; user_id: string };
  return { email, token: body.access_token, userId: body.user_id };
}

/** Puts the session keys into this browser's local storage, as the login screen would. */
export async function useSession(page: Page, account: SignedInAccount): Promise<void> {
  // Any page of the site gives the origin's storage; a plain file would make Chromium ask for /favicon.ico.
  await page.goto('/privacy-policy');
  await page.evaluate((a) => {
    localStorage.setItem('token', a.token);
    localStorage.setItem('authToken', a.token);
    localStorage.setItem('user_id', a.userId);
    localStorage.setItem('user_name', a.name);
    localStorage.setItem('user_email', a.email);
    localStorage.setItem('session_ts', String(Date.now()));
    localStorage.setItem('user', JSON.stringify({ id: a.userId, name: a.name, email: a.email }));
  }, account);
}

/** A real PNG of the given size, uniform grey. */
export function pngFile(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .png()
    .toBuffer();
}

/** A small gzip-compressed NIfTI-1 volume. */
export function niftiGzFile(): Buffer {
  const header = Buffer.alloc(352);
  header.writeInt32LE(348, 0);
  header.write('n+1\0', 344, 'latin1');
  return gzipSync(Buffer.concat([header, Buffer.alloc(512, 3)]));
}

/** A PNG signature followed by `megabytes` of filler: accepted by the server, large enough to watch. */
export function largePngLike(megabytes: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(megabytes * 1024 * 1024, 7),
  ]);
}

/** Uploads through the API (for tests whose subject is not the upload itself). */
export async function apiUpload(request: APIRequestContext, account: SignedInAccount, name: string, buffer: Buffer) {
  const res = await request.post('/api/v1/uploads', {
    headers: { authorization: `Bearer ${account.token}` },
    multipart: { file: { name, mimeType: 'application/octet-stream', buffer } },
  });
  if (res.status() !== 201) throw new Error(`upload answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as { stored_filename: string };
}
