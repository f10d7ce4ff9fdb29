import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deidentifyDicom } from '../../../server/imaging/dicom/deidentify.ts';
import { deidentifyOffThread, UnreadableDicomError } from '../../../server/workers/deidentify-off-thread.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('de-identification on its own thread', () => {
  it('answers the bytes deidentifyDicom makes, with their SHA-256, for files cleaned side by side', async () => {
    const originals = await Promise.all(
      ['explicit-le', 'implicit-le', 'rle'].map((syntax) =>
        makeDicomImage({ syntax: syntax as 'explicit-le', identifying: true, width: 16, height: 8 }),
      ),
    );
    const expected = await Promise.all(originals.map((original) => deidentifyDicom(original, 'owner-1')));
    const cleaned = await Promise.all(originals.map((original) => deidentifyOffThread(original.slice(), 'owner-1')));
    for (const [i, clean] of cleaned.entries()) {
      expect(Buffer.from(clean.bytes).equals(Buffer.from(expected[i]!))).toBe(true);
      expect(clean.sha256).toBe(sha256(expected[i]!));
    }
  });

  it('takes a buffer it owns whole, and copies a view into a larger one', async () => {
    const original = await makeDicomImage({ identifying: true, width: 8, height: 8 });
    const owned = original.slice();
    await deidentifyOffThread(owned, 'owner-1');
    expect(owned.byteLength).toBe(0);
    const pool = new Uint8Array(original.length + 16);
    pool.set(original, 16);
    const view = pool.subarray(16);
    const clean = await deidentifyOffThread(view, 'owner-1');
    expect(view.byteLength).toBe(original.length);
    expect(clean.sha256).toBe(sha256(await deidentifyDicom(original, 'owner-1')));
  });

  it('refuses a file it cannot parse with the reason, and keeps working after', async () => {
    const notDicom = new Uint8Array(300);
    notDicom.set(Buffer.from('DICM'), 128);
    await expect(deidentifyOffThread(notDicom, 'owner-1')).rejects.toSatisfy(
      (error) => error instanceof UnreadableDicomError && /could not be read/.test(error.message),
    );
    const original = await makeDicomImage({ identifying: true, width: 8, height: 8 });
    await expect(deidentifyOffThread(original, 'owner-1')).resolves.toMatchObject({ sha256: expect.any(String) });
  });
});
