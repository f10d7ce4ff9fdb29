// Photographs the running product for the public site, so its pictures never go stale: starts the real
// server (the built dist/) on an empty data folder, creates an account and demo images by code, and saves
// the image library, the details window with a quality-check result, the volume viewer and the engine's
// own report on the demo image. Run it after `npm run build`: `npm run screenshots`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chromium,
  request as playwrightRequest,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { makeDicomImage } from '../tests/fixtures/dicom-fixtures.ts';
import { writeNifti } from '../tests/fixtures/nifti-writer.ts';
import { addRicianNoise, blur, cleanPhantom, toUint16 } from '../tests/fixtures/phantoms.ts';
import { readOutbox } from '../tests/server/helpers/outbox.ts';
import { qcRequest } from '../src/lib/qc-request.ts';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'src/assets/product');
const port = Number(process.env.SCREENSHOT_PORT ?? 8790);
const baseURL = `http://127.0.0.1:${port}`;
const password = 'Screenshots-2026!';
const email = 'demo@lumenqc.example';
const name = 'Dr Ada Demo';

/** A 256×256 MR slice as DICOM: the phantom with mild noise (a Pass) or blurred and noisy (a Fail). */
async function demoDicom(degraded: boolean, seed: number): Promise<Buffer> {
  const base = cleanPhantom({ size: 256, inner: 800, background: 0 });
  const image = degraded ? addRicianNoise(blur(base, 4), 220, seed) : addRicianNoise(base, 18, seed);
  const bytes = await makeDicomImage({
    width: 256,
    height: 256,
    samples: toUint16(image),
    syntax: 'explicit-le',
    identifying: true,
    window: { center: 600, width: 1200 },
  });
  return Buffer.from(bytes);
}

/** A 96×96×64 CT-like volume in Hounsfield units: air, a soft-tissue ellipsoid, a bone shell and a dense core. */
function demoCtVolume(): Buffer {
  const [nx, ny, nz] = [96, 96, 64];
  const values = new Array<number>(nx * ny * nz);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) {
        const r = ((x - 48) / 40) ** 2 + ((y - 48) / 36) ** 2 + ((z - 32) / 28) ** 2;
        const core = ((x - 56) / 10) ** 2 + ((y - 42) / 9) ** 2 + ((z - 32) / 10) ** 2;
        const texture = ((x * 7 + y * 13 + z * 5) % 23) - 11;
        values[x + nx * (y + ny * z)] =
          r > 1 ? -1000 : r > 0.82 ? 700 + texture * 4 : core <= 1 ? 180 + texture : 40 + texture * 2;
      }
  return Buffer.from(
    writeNifti({ dims: [nx, ny, nz], values, type: 'int16', gzip: true, spacing: [1, 1, 1.5], description: 'demo' }),
  );
}

/** Starts the server on an empty data folder and waits until it answers. */
async function startServer(dataDir: string) {
  const server = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', PUBLIC_SITE_URL: baseURL },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`${baseURL}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return server;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  server.kill();
  throw new Error('the server did not start');
}

/** Registers the demo account, follows the verification link from the outbox and signs in. */
async function demoAccount(api: APIRequestContext, dataDir: string) {
  await api.post('/api/v1/auth/register', { data: { name, email, password, organization: null } });
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    link = (await readOutbox(dataDir)).flatMap((m) => m.links).find((l) => l.includes('/verify-email?token='));
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error('no verification mail');
  const token = new URL(link).searchParams.get('token')!;
  await api.get(`/api/v1/auth/verify/${encodeURIComponent(token)}`);
  const login = await api.post('/api/v1/auth/login', { data: { email, password } });
  return (await login.json()) as { access_token: string; user_id: string };
}

/** Uploads one file through the API and answers its item. */
async function upload(api: APIRequestContext, token: string, file: string, buffer: Buffer) {
  const res = await api.post('/api/v1/uploads', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: file, mimeType: 'application/octet-stream', buffer } },
  });
  if (res.status() !== 201) throw new Error(`upload of ${file} answered ${res.status()}`);
  return (await res.json()) as { stored_filename: string; url: string };
}

/** Saves a screenshot of the page, or of one element of it, as it is now. */
async function shoot(target: Page | Locator, file: string) {
  await target.screenshot({ path: path.join(outDir, file), animations: 'disabled', caret: 'hide' });
  console.log(`wrote src/assets/product/${file}`);
}

if (!existsSync(path.join(root, 'dist/index.html'))) throw new Error('run `npm run build` first');
const dataDir = await mkdtemp(path.join(tmpdir(), 'lumenqc-screenshots-'));
const server = await startServer(dataDir);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
try {
  await mkdir(outDir, { recursive: true });
  const api = await playwrightRequest.newContext({ baseURL });
  const session = await demoAccount(api, dataDir);
  const auth = { authorization: `Bearer ${session.access_token}` };

  const brain = await upload(api, session.access_token, 'brain-t1-axial.dcm', await demoDicom(false, 3));
  await upload(api, session.access_token, 'knee-t2-motion.dcm', await demoDicom(true, 5));
  await upload(api, session.access_token, 'abdomen-ct.nii.gz', demoCtVolume());
  await upload(api, session.access_token, 'brain-t1-follow-up.dcm', await demoDicom(false, 8));

  // The engine's report on the demo image, exactly as the API answers it, for the page to show.
  const check = await api.post('/api/v1/llm/generate-messages', { headers: auth, data: qcRequest(brain.url) });
  if (check.status() !== 200) throw new Error(`quality check answered ${check.status()}`);
  const result = (await check.json()) as { model: string; choices: { message: { content: string } }[]; qc: unknown };
  const { verdict, confidence, issues, fixes, metrics } = result.qc as Record<string, unknown>;
  const report = {
    image: 'A 256×256 MR phantom with Rician noise, made by code (scripts/product-screenshots.ts)',
    model: result.model,
    summary: result.choices[0]!.message.content,
    qc: { verdict, confidence, issues, fixes, metrics },
  };
  await writeFile(path.join(outDir, 'sample-qc-report.json'), JSON.stringify(report, null, 2) + '\n');
  console.log('wrote src/assets/product/sample-qc-report.json');

  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto('/privacy-policy');
  await page.evaluate(
    ({ s, n, e }) => {
      for (const key of ['token', 'authToken']) localStorage.setItem(key, s.access_token);
      localStorage.setItem('user_id', s.user_id);
      localStorage.setItem('user_name', n);
      localStorage.setItem('user_email', e);
      localStorage.setItem('session_ts', String(Date.now()));
      localStorage.setItem('user', JSON.stringify({ id: s.user_id, name: n, email: e }));
    },
    { s: session, n: name, e: email },
  );

  await page.goto('/dashboard/images');
  await page.getByRole('button', { name: 'Details of abdomen-ct.nii.gz' }).waitFor();
  await page.waitForLoadState('networkidle');
  await shoot(page, 'dashboard-images.png');

  // DICOM files are renamed by their de-identified content (MR.dcm), so the blurred one is found by its
  // place: the list is newest first (follow-up, CT, knee, brain).
  // Tall enough for the whole details window, photographed from its title to the quality-check result.
  await page.setViewportSize({ width: 1280, height: 2600 });
  await page
    .getByRole('button', { name: /^Details of / })
    .nth(2)
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Check Quality Control' }).click();
  await dialog
    .getByText(/^QC verdict: /)
    .first()
    .waitFor({ timeout: 60_000 });
  await dialog.getByRole('list', { name: 'Check history' }).waitFor();
  await page.waitForLoadState('networkidle');
  const top = (await dialog.boundingBox())!;
  const end = (await dialog.getByRole('button', { name: 'Copy URL' }).boundingBox())!;
  await page.screenshot({
    path: path.join(outDir, 'details-qc-result.png'),
    clip: { x: top.x, y: top.y, width: top.width, height: end.y + end.height + 16 - top.y },
    animations: 'disabled',
    caret: 'hide',
  });
  console.log('wrote src/assets/product/details-qc-result.png');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Details of abdomen-ct.nii.gz' }).click();
  await page.getByRole('button', { name: 'Open viewer' }).click();
  await page.getByTestId('volume-readout').getByText(/Voxel/).waitFor({ timeout: 120_000 });
  await page.getByRole('button', { name: /^Soft tissue/ }).click();
  await page.waitForTimeout(500);
  await shoot(page.locator('section.vv'), 'volume-viewer.png');
} finally {
  await browser.close();
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
