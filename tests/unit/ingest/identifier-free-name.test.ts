import { describe, expect, it } from 'vitest';
import { nameWithoutIdentifiers } from '../../../server/modules/ingest/identifier-free-name.ts';

const john = ['DOE^JOHN', 'MRN778899', '19700412', 'ACC-4411', '20240115', '1.2.826.0.1.3680043.9.7734.1.3'];

describe('a client file name without what identifies the file', () => {
  it('keeps a name that repeats nothing of the file', () => {
    expect(nameWithoutIdentifiers('sub-23_T1w.dcm', '.dcm', john)).toBe('sub-23_T1w.dcm');
  });

  it('drops the patient name parts and ID, leaving nothing meaningful', () => {
    expect(nameWithoutIdentifiers('DOE_JOHN_MRN778899.dcm', '.dcm', john)).toBeUndefined();
  });

  it('drops a token that holds an ID of four characters or more, and keeps the rest', () => {
    expect(nameWithoutIdentifiers('doe-john_ID778899_T1w.dcm', '.dcm', ['DOE^JOHN', '778899'])).toBe('T1w.dcm');
  });

  it('drops dates however they are written, the accession number and an instance UID', () => {
    expect(nameWithoutIdentifiers('scan_2024-01-15_flair.nii.gz', '.nii.gz', john)).toBe('scan_flair.nii.gz');
    expect(nameWithoutIdentifiers('15.01.2024 knee.dcm', '.dcm', john)).toBe('knee.dcm');
    expect(nameWithoutIdentifiers('ACC-4411_axial.dcm', '.dcm', john)).toBe('axial.dcm');
    expect(nameWithoutIdentifiers('1.2.826.0.1.3680043.9.7734.1.3', '.dcm', john)).toBeUndefined();
  });

  it('keeps an extension-less scanner name that identifies no one', () => {
    expect(nameWithoutIdentifiers('IM0001', '.dcm', john)).toBe('IM0001');
  });

  it('keeps every name when the file says nothing identifying', () => {
    expect(nameWithoutIdentifiers('DOE_JOHN.dcm', '.dcm', [])).toBe('DOE_JOHN.dcm');
  });
});
