import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedAccount, STRONG_PASSWORD, uniqueEmail } from './auth-helpers.ts';

/** Registers, verifies and signs in a new user through the API, and puts the session in local storage. */
export async function signIn(page: Page, request: APIRequestContext): Promise<string> {
  const email = uniqueEmail('viewer');
  await createVerifiedAccount(request, email, 'Viewer Tester');
  const login = await request.post('/api/v1/auth/login', { data: { email, password: STRONG_PASSWORD } });
  if (login.status() !== 200) throw new Error(`login answered ${login.status()}`);
  const body = (await login.json()) as { access_token: string; user_id: string; name: string; email: string };
  await page.addInitScript((session) => {
    if (localStorage.getItem('token')) return; // a test that signs out stays signed out after reloads
    for (const key of ['token', 'authToken']) localStorage.setItem(key, session.access_token);
    localStorage.setItem('user_id', session.user_id);
    localStorage.setItem('user_name', session.name);
    localStorage.setItem('user_email', session.email);
    localStorage.setItem('user', JSON.stringify({ id: session.user_id, name: session.name, email: session.email }));
  }, body);
  return body.access_token;
}

/** An RGB image decoded from a PNG screenshot. */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** A screenshot of an element, decoded to raw RGB. */
export async function pixelsOf(locator: Locator): Promise<Pixels> {
  const png = await locator.screenshot();
  return decodePng(png);
}

/** Decodes a PNG to raw RGB. */
export async function decodePng(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The share of pixels that differ from the colour of the top-left corner (the background) by more than 24. */
export function drawnFraction(image: Pixels): number {
  const [r, g, b] = [image.data[0]!, image.data[1]!, image.data[2]!];
  let drawn = 0;
  for (let i = 0; i < image.data.length; i += 3) {
    const d = Math.abs(image.data[i]! - r) + Math.abs(image.data[i + 1]! - g) + Math.abs(image.data[i + 2]! - b);
    if (d > 24) drawn += 1;
  }
  return drawn / (image.width * image.height);
}

/** The share of pixels that differ between two same-sized images by more than 24 (sum over RGB). */
export function changedFraction(a: Pixels, b: Pixels): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    const d =
      Math.abs(a.data[i]! - b.data[i]!) +
      Math.abs(a.data[i + 1]! - b.data[i + 1]!) +
      Math.abs(a.data[i + 2]! - b.data[i + 2]!);
    if (d > 24) changed += 1;
  }
  return changed / (a.width * a.height);
}
