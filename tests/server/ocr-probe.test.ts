// The start-up check of the OCR engine: a word drawn by code must be read back, and a broken engine says why.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeOcr } from '../../server/imaging/dicom/ocr-engine.ts';
import { probeOcr } from '../../server/imaging/dicom/ocr-probe.ts';

afterEach(async () => {
  delete process.env.OCR_MODEL_DIR;
  await closeOcr();
});

describe('the OCR probe', () => {
  it('reads the drawn word with the model shipped as an npm package', async () => {
    expect(await probeOcr()).toBeUndefined();
  }, 60_000);

  it('says in one line that the engine could not start when its model is missing', async () => {
    process.env.OCR_MODEL_DIR = mkdtempSync(path.join(tmpdir(), 'no-ocr-model-'));
    const problem = await probeOcr();
    expect(problem).toMatch(/^the OCR engine could not start \(ENOENT/);
    expect(problem).not.toContain('\n');
  });
});
