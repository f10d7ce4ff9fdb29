// Codes that name an institution or a person: inside sequences the Basic Profile replaces with dummies (D, or
// X/Z/D where the IOD does not say otherwise), code values, designators and meanings get dummies too.
import { describe, expect, it } from 'vitest';
import { parseDicom, stringValue } from '../../server/imaging/dicom/dicom-dataset.ts';
import { deidentifyDicom } from '../../server/imaging/dicom/deidentify.ts';
import { writeDicomFile, type FixtureElement } from '../fixtures/dicom-writer.ts';

const code = (value: string, designator: string, meaning: string): FixtureElement[] => [
  { tag: '00080100', vr: 'SH', value },
  { tag: '00080102', vr: 'SH', value: designator },
  { tag: '00080104', vr: 'LO', value: meaning },
];

/** A file of an IOD this server does not know (so X/Z/D resolves to D), naming a hospital and an operator by code. */
function codedFile(syntax: 'explicit-le' | 'implicit-le'): Uint8Array {
  return writeDicomFile({
    syntax,
    elements: [
      { tag: '00080016', vr: 'UI', value: '1.2.826.0.1.3680043.10.999.1' },
      { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.999.2' },
      { tag: '00080060', vr: 'CS', value: 'OT' },
      { tag: '00080082', vr: 'SQ', value: [code('SMH01', '99STMARY', "St Mary's Hospital")] },
      {
        tag: '00081072',
        vr: 'SQ',
        value: [[{ tag: '00401101', vr: 'SQ', value: [code('GH1234', '99STMARY', 'Dr Gregory House')] }]],
      },
      { tag: '00100010', vr: 'PN', value: 'DOE^JOHN' },
    ],
  });
}

describe('codes in sequences replaced by dummies', () => {
  for (const syntax of ['explicit-le', 'implicit-le'] as const) {
    it(`keeps no institution or person code in Institution Code and Person Identification Code Sequences (${syntax})`, async () => {
      const out = Buffer.from(await deidentifyDicom(codedFile(syntax), 'salt'));
      const text = out.toString('latin1');
      for (const secret of ['SMH01', 'GH1234', '99STMARY', "St Mary's Hospital", 'Dr Gregory House', 'DOE^JOHN'])
        expect(text).not.toContain(secret);
      // The sequences stay, with an item of dummy values: a dummy keeps the file's structure.
      const dataSet = parseDicom(out);
      const institution = dataSet.elements.x00080082!.items![0]!.dataSet!;
      expect(stringValue(institution, 'x00080100')).toBe('ANONYMOUS');
      expect(stringValue(institution, 'x00080104')).toBe('ANONYMOUS');
      const operator = dataSet.elements.x00081072!.items![0]!.dataSet!;
      const person = operator.elements.x00401101!.items![0]!.dataSet!;
      expect(stringValue(person, 'x00080104')).toBe('ANONYMOUS');
    });
  }
});
