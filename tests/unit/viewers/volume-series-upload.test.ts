import { describe, expect, it } from 'vitest';
import { groupUploads } from '../../../src/stores/volume-series-upload.ts';

const file = (name: string, text = name) => new File([text], name);

describe('groupUploads', () => {
  it('sends DICOM files chosen together in one request to the series route, each as it is', () => {
    const [a, png, b, zip] = [file('a.dcm'), file('photo.png'), file('B.DCM'), file('export.zip')];
    const out = groupUploads([a!, png!, b!, zip!]);
    expect(out).toEqual([
      { name: '2 DICOM files', files: [a, b], route: '/uploads/series' },
      { name: 'photo.png', files: [png], route: '/uploads' },
      { name: 'export.zip', files: [zip], route: '/uploads/series' },
    ]);
  });

  it('sends a single DICOM file on its own to the single-file route', () => {
    const one = file('one.dcm');
    expect(groupUploads([one])).toEqual([{ name: 'one.dcm', files: [one], route: '/uploads' }]);
  });
});
