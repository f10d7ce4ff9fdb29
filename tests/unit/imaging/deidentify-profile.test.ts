import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionFor, dictionaryVr, iodOf } from '../../../server/imaging/dicom/deidentify-profile.ts';
import { profileRows } from '../../../server/imaging/dicom/deidentify-profile-table.ts';
import { deidentifyDicomWithReport, remapUid } from '../../../server/imaging/dicom/deidentify.ts';
import { parseDicom, stringValue } from '../../../server/imaging/dicom/dicom-dataset.ts';
import { writeDicomFile } from '../../fixtures/dicom-writer.ts';

const CT = '1.2.840.10008.5.1.4.1.1.2';
const COMPREHENSIVE_SR = '1.2.840.10008.5.1.4.1.1.88.33';

describe('the generated Basic Profile', () => {
  it('has every row of PS3.15 Table E.1-1 with the action the table gives', () => {
    const tsv = readFileSync(
      new URL('../../../scripts/reference/dicom-confidentiality-profile.tsv', import.meta.url),
      'utf8',
    );
    const tags = [...tsv.matchAll(/^\(([0-9A-FX]{4}),([0-9A-FX]{4})\)\t[^\t]*(?:\t([^\t\n]*))?/gim)];
    expect(tags.length).toBe(620);
    // 620 rows with a tag (50xx and 60xx among them), plus the private-attribute row.
    expect(profileRows).toHaveLength(621);
    for (const [, group, element, action] of tags) {
      const row = profileRows.find((r) => r.tag === `${group}${element}`.toLowerCase());
      expect(row, `${group},${element}`).toBeDefined();
      if (action) expect(row!.basic, `${group},${element}`).toBe(action);
    }
    expect(profileRows.find((r) => r.tag === '00880200')?.basic).toBe('X');
    expect(profileRows.find((r) => r.tag === 'private')?.basic).toBe('X');
  });

  it('chooses combined codes by the Type the IOD gives the attribute', () => {
    expect(iodOf(CT)).toBe('CT Image');
    // Institution Name (X/Z/D) is Type 3 in CT; Content Date (Z/D) Type 2 in CT and Type 1 in SR.
    expect(actionFor('x00080080', 'CT Image', false)).toBe('X');
    expect(actionFor('x00080023', 'CT Image', false)).toBe('Z');
    expect(actionFor('x00080023', iodOf(COMPREHENSIVE_SR), false)).toBe('D');
    // Referenced Image Sequence (X/Z/U*) is Type 3 in CT; inside a sequence its Type is unknown: kept, UIDs remapped.
    expect(actionFor('x00081140', 'CT Image', false)).toBe('X');
    expect(actionFor('x00081140', 'CT Image', true)).toBe('U*');
    expect(actionFor('x00100010', 'CT Image', false)).toBe('Z');
    expect(actionFor('x00200052', undefined, true)).toBe('U');
    // An option column overrides the Basic Profile.
    expect(actionFor('x00080020', 'CT Image', false, ['rtnLongFullDatesOpt'])).toBe('K');
  });

  it('knows VRs from the data dictionary for implicit-VR files', () => {
    expect(dictionaryVr('x00089123')).toBe('UI');
    expect(dictionaryVr('x52009230')).toBe('SQ');
    expect(dictionaryVr('x00090010')).toBeUndefined();
  });
});

describe('de-identifying by the profile', () => {
  const file = (syntax: 'implicit-le' | 'explicit-le') =>
    writeDicomFile({
      syntax,
      elements: [
        { tag: '00080016', vr: 'UI', value: CT },
        { tag: '00080018', vr: 'UI', value: '1.2.3.4.5.6' },
        { tag: '00080080', vr: 'LO', value: 'ST ELSEWHERE HOSPITAL' },
        // Creator-Version UID is not in the table: still a UID that names this instance's maker.
        { tag: '00089123', vr: 'UI', value: '1.2.3.999.1' },
        { tag: '00090010', vr: 'LO', value: 'ACME PRIVATE' },
        { tag: '00091001', vr: 'LO', value: 'PRIVATE SECRET' },
        { tag: '00104000', vr: 'LT', value: 'PATIENT COMMENT SECRET' },
        {
          tag: '52009230',
          vr: 'SQ',
          value: [
            [
              {
                tag: '00209111',
                vr: 'SQ',
                value: [[{ tag: '00209158', vr: 'LT', value: 'FRAME COMMENT SECRET' }]],
              },
              { tag: '00189074', vr: 'DT', value: '20240102030405' },
            ],
          ],
        },
        { tag: '60003000', vr: 'OW', value: new Uint8Array(8).fill(1) },
        { tag: '00880200', vr: 'SQ', value: [[{ tag: '00280010', vr: 'US', value: [4] }]] },
        { tag: 'FFFCFFFC', vr: 'OB', value: new Uint8Array(6) },
      ],
    });

  for (const syntax of ['implicit-le', 'explicit-le'] as const) {
    it(`acts on every kind of attribute in a ${syntax} file and reports it`, async () => {
      const { parts, report } = await deidentifyDicomWithReport(file(syntax), 'owner-1');
      const clean = Buffer.concat(parts);
      const text = Buffer.from(clean).toString('latin1');
      for (const secret of ['ELSEWHERE', 'SECRET', 'ACME', '20240102', '1.2.3.999.1', '1.2.3.4.5.6']) {
        expect(text, secret).not.toContain(secret);
      }
      const dataSet = parseDicom(clean);
      expect(stringValue(dataSet, 'x00089123')).toBe(remapUid('1.2.3.999.1', 'owner-1'));
      expect(dataSet.elements.x00080080).toBeUndefined();
      expect(dataSet.elements.x60003000).toBeUndefined();
      expect(dataSet.elements.x00880200).toBeUndefined();
      expect(dataSet.elements.xfffcfffc).toBeUndefined();
      const frame = dataSet.elements.x52009230!.items![0]!.dataSet!;
      expect(stringValue(frame, 'x00189074')).toBe('19000101000000');
      expect(frame.elements.x00209111!.items![0]!.dataSet!.elements.x00209158).toBeUndefined();
      expect(report.iod).toBe('CT Image');
      expect(report.privateTagsDropped).toBe(2);
      expect(report.uidsRemapped).toBe(2);
      expect(report.removed.map((a) => a.tag)).toEqual(
        expect.arrayContaining([
          '(0008,0080)',
          '(0010,4000)',
          '(0020,9158)',
          '(6000,3000)',
          '(0088,0200)',
          '(FFFC,FFFC)',
        ]),
      );
      expect(report.replaced).toContainEqual({ tag: '(0018,9074)', name: 'Frame Acquisition DateTime', count: 1 });
    });
  }
});
