import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_COHORT } from '../../server/imaging/cohort.ts';
import { qcResults } from '../../server/modules/qc/qc.table.ts';
import { makeDicomImage } from '../fixtures/dicom-fixtures.ts';
import { addRicianNoise, blur, cleanPhantom, toUint16 } from '../fixtures/phantoms.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createSignedInUser(t);
});
afterAll(() => t.close());

/** A 128×128 MR phantom: noise of the given sigma and seed, optionally blurred. */
async function slice(sigma: number, seed: number, blurSigma = 0): Promise<Buffer> {
  const base = cleanPhantom({ size: 128, inner: 800, background: 0 });
  const image = addRicianNoise(blurSigma ? blur(base, blurSigma) : base, sigma, seed);
  return Buffer.from(await makeDicomImage({ width: 128, height: 128, samples: toUint16(image) }));
}

const check = (url: string, who = user) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/llm/generate-messages',
    headers: who.auth,
    payload: { model: 'default', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] },
  });

async function uploadAndCheck(name: string, bytes: Buffer, who = user) {
  const item = (await uploadFile(t, who, name, bytes)).json();
  const res = await check(item.url, who);
  expect(res.statusCode).toBe(200);
  return { item, body: res.json() };
}

describe('cohort context: an image placed among the caller’s earlier images of its modality', () => {
  it('says nothing below twenty, then places a typical image in range and calls a degraded one unusual', async () => {
    for (let i = 0; i < MIN_COHORT; i++) {
      const { body } = await uploadAndCheck(`scan-${i}.dcm`, await slice(18 + (i % 5), i + 1));
      expect(body.qc.cohort, `check ${i} has ${i} earlier images`).toBeUndefined();
      expect(body.choices[0].message.content).not.toContain('Cohort');
    }
    const typical = (await uploadAndCheck('typical.dcm', await slice(20, 99))).body;
    expect(typical.qc.cohort).toMatchObject({ size: MIN_COHORT, unusual: [] });
    expect(Math.abs(typical.qc.cohort.z.snr)).toBeLessThan(3.5);
    expect(typical.choices[0].message.content).toContain(
      `Cohort (${MIN_COHORT} earlier MR images): every measurement within the usual range.`,
    );

    const { item, body } = await uploadAndCheck('noisy.dcm', await slice(120, 7, 2));
    expect(body.qc.cohort.size).toBe(MIN_COHORT + 1);
    expect(body.qc.cohort.z.snr).toBeLessThan(-3.5);
    expect(body.qc.cohort.unusual.join(' ')).toMatch(/SNR \(Rician-corrected\) unusual for this cohort \(z = -\d/);
    expect(body.choices[0].message.content).toMatch(/^Cohort \(21 earlier MR images\): .*unusual for this cohort/m);
    // Stored with the result, so the history and the batch export show it too.
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}/qc-results`,
      headers: user.auth,
    });
    expect(history.json()[0].metrics.cohort.unusual.length).toBeGreaterThan(0);

    // Checking the same image again compares it with the others, not with its own earlier result.
    const again = (await check(item.url)).json();
    expect(again.qc.cohort.size).toBe(MIN_COHORT + 1);
  });

  it('compares only the caller’s own images', async () => {
    const other = await createSignedInUser(t);
    const { body } = await uploadAndCheck('mine.dcm', await slice(20, 5), other);
    expect(body.qc.cohort).toBeUndefined();
  });

  it('places each image of a batch among the earlier ones and those checked before it', async () => {
    const item = (await uploadFile(t, user, 'late.dcm', await slice(120, 8, 2))).json();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/qc/batches',
      headers: user.auth,
      payload: { scope: 'selection', stored_filenames: [item.stored_filename] },
    });
    expect(created.statusCode).toBe(202);
    let batch = created.json();
    for (let i = 0; i < 400 && batch.status !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      batch = (await t.app.inject({ method: 'GET', url: `/api/v1/qc/batches/${batch.id}`, headers: user.auth })).json();
    }
    expect(batch.status).toBe('done');
    const history = await t.app.inject({
      method: 'GET',
      url: `/api/v1/uploads/${item.stored_filename}/qc-results`,
      headers: user.auth,
    });
    const stored = history.json()[0];
    expect(stored.metrics.cohort.size).toBeGreaterThanOrEqual(MIN_COHORT);
    expect(stored.text).toMatch(/^Cohort \(\d+ earlier MR images\): .*unusual for this cohort/m);
  });

  it('leaves out measurements taken by another engine version', async () => {
    // The caller's earlier checks, as an engine with other limits (or units) would have stored them.
    await t.app.db
      .update(qcResults)
      .set({ metrics: sql`jsonb_set(${qcResults.metrics}, '{engine}', '"lumenqc-builtin-1+qc-model-1.00000000"')` })
      .where(eq(qcResults.ownerId, user.id));
    const { body } = await uploadAndCheck('after-refit.dcm', await slice(20, 11));
    expect(body.qc.cohort).toBeUndefined();
  });
});
