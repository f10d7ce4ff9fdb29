import { describe, expect, it } from 'vitest';
import { parseDicom, stringValue } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { decodeDicom } from '../../../server/imaging/dicom/dicom-decode.ts';
import { DEIDENTIFICATION_METHOD, deidentifyDicom, remapUid } from '../../../server/imaging/dicom/deidentify.ts';
import { makeDicomImage } from '../../fixtures/dicom-fixtures.ts';
import { fixtureIdentity } from '../../fixtures/identity.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('DICOM de-identification (PS3.15 Annex E Basic Profile)', () => {
  for (const syntax of ['explicit-le', 'implicit-le', 'explicit-be', 'deflated', 'rle', 'jpeg-ls'] as const) {
    it(`keeps none of the identifying values written into a ${syntax} file, and every pixel`, async () => {
      const original = await makeDicomImage({ syntax, identifying: true, width: 24, height: 8 });
      // A deflated file hides its text in the compressed stream; the others show it in plain bytes.
      if (syntax !== 'deflated')
        for (const value of Object.values(fixtureIdentity)) expect(text(original)).toContain(value);
      const clean = await deidentifyDicom(original, 'owner-1');
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
    const a = parseDicom(await deidentifyDicom(original, 'owner-1'));
    const b = parseDicom(await deidentifyDicom(original, 'owner-1'));
    const c = parseDicom(await deidentifyDicom(original, 'owner-2'));
    const study = stringValue(a, 'x0020000d');
    expect(study).toBe(remapUid(fixtureIdentity.studyInstanceUid, 'owner-1'));
    expect(study).toMatch(/^2\.25\.\d+$/);
    expect(stringValue(b, 'x0020000d')).toBe(study);
    expect(stringValue(c, 'x0020000d')).not.toBe(study);
    expect(stringValue(a, 'x00020003')).toBe(stringValue(a, 'x00080018'));
    expect(stringValue(a, 'x00080016')).toBe('1.2.840.10008.5.1.4.1.1.4');
  });
});

describe('sequences kept by the profile', () => {
  it('are cleaned inside: names emptied, UIDs remapped, private tags dropped, other values kept', async () => {
    const { writeDicomFile } = await import('../../fixtures/dicom-writer.ts');
    const original = writeDicomFile({
      syntax: 'explicit-le',
      elements: [
        { tag: '00080018', vr: 'UI', value: fixtureIdentity.sopInstanceUid },
        {
          tag: '00081032',
          vr: 'SQ',
          value: [
            [
              { tag: '00080100', vr: 'SH', value: 'CODE-42' },
              { tag: '00081155', vr: 'UI', value: fixtureIdentity.seriesInstanceUid },
              { tag: '00100010', vr: 'PN', value: fixtureIdentity.patientName },
              { tag: '00091001', vr: 'LO', value: fixtureIdentity.privateNote },
            ],
          ],
        },
      ],
    });
    const clean = await deidentifyDicom(original, 'owner-1');
    for (const value of Object.values(fixtureIdentity)) expect(text(clean), value).not.toContain(value);
    const item = parseDicom(clean).elements.x00081032!.items![0]!.dataSet!;
    expect(stringValue(item, 'x00080100')).toBe('CODE-42');
    expect(stringValue(item, 'x00081155')).toBe(remapUid(fixtureIdentity.seriesInstanceUid, 'owner-1'));
    expect(item.elements.x00100010?.length).toBe(0);
    expect(item.elements.x00091001).toBeUndefined();
  });
});
