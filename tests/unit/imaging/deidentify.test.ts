import { describe, expect, it } from 'vitest';
import { parseDicom, stringValue } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { decodeDicom } from '../../../server/imaging/dicom/dicom-decode.ts';
import { DEIDENTIFICATION_METHOD, deidentifyDicom, remapUid } from '../../../server/imaging/dicom/deidentify.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';
import { fixtureIdentity } from '../../fixtures/identity.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('DICOM de-identification (PS3.15 Annex E Basic Profile)', () => {
  for (const syntax of ['explicit-le', 'implicit-le', 'explicit-be', 'rle', 'jpeg-ls'] as const) {
    it(`keeps none of the identifying values written into a ${syntax} file, and every pixel`, async () => {
      const original = await makeDicomImage({ syntax, identifying: true, width: 24, height: 8 });
      for (const value of Object.values(fixtureIdentity)) expect(text(original)).toContain(value);
      const clean = deidentifyDicom(original, 'owner-1');
      for (const value of Object.values(fixtureIdentity)) expect(text(clean), value).not.toContain(value);
      expect(Array.from((await decodeDicom(clean)).data)).toEqual(Array.from((await decodeDicom(original)).data));
      const dataSet = parseDicom(clean);
      expect(stringValue(dataSet, 'x00120062')).toBe('YES');
      expect(stringValue(dataSet, 'x00120063')).toBe(DEIDENTIFICATION_METHOD);
      expect(dataSet.elements.x00100010?.length).toBe(0);
      expect(dataSet.elements.x00291010).toBeUndefined();
      expect(stringValue(dataSet, 'x00080060')).toBe('MR');
    });
  }

  it('remaps UIDs consistently for one owner and differently for another', async () => {
    const original = await makeDicomImage({ identifying: true });
    const a = parseDicom(deidentifyDicom(original, 'owner-1'));
    const b = parseDicom(deidentifyDicom(original, 'owner-1'));
    const c = parseDicom(deidentifyDicom(original, 'owner-2'));
    const study = stringValue(a, 'x0020000d');
    expect(study).toBe(remapUid(fixtureIdentity.studyInstanceUid, 'owner-1'));
    expect(study).toMatch(/^2\.25\.\d+$/);
    expect(stringValue(b, 'x0020000d')).toBe(study);
    expect(stringValue(c, 'x0020000d')).not.toBe(study);
    expect(stringValue(a, 'x00020003')).toBe(stringValue(a, 'x00080018'));
    expect(stringValue(a, 'x00080016')).toBe('1.2.840.10008.5.1.4.1.1.4');
  });
});
