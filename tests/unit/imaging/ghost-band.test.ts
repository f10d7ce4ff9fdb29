import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../../server/imaging/decode-image.ts';
import { measureQuality } from '../../../server/imaging/metrics/quality-metrics.ts';
import { QC_MODEL } from '../../../server/imaging/qc-model.ts';
import { assessQuality } from '../../../server/imaging/verdict.ts';
import type { ImageVolume } from '../../../server/imaging/volume.ts';
import { addPhaseGhosts, addRicianNoise, cleanPhantom, type Phantom } from '../../fixtures/phantoms.ts';
import { phantomVolume } from './phantom-volume.ts';

const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';
const REAL_CLEAN = [
  '/usr/share/doc/dicom3tools/examples/0051.dcm',
  `${NIBABEL}/example4d.nii.gz`,
  `${NIBABEL}/anatomical.nii`,
  '/usr/lib/python3/dist-packages/pydicom/data/test_files/MR_small.dcm',
];
const review = QC_MODEL.families.MR.limits['mr-ghost-band']!.review;

/** A head (the phantom's ellipse, 512 on air) with air beside it both ways, and MR noise. */
const head = (): Phantom =>
  addRicianNoise(cleanPhantom({ size: 192, foreground: 800, inner: 500, background: 0 }), 20, 4);

const measures = (v: ImageVolume) => measureQuality(v).measures;

describe('ghosts beside the head along the phase axis (ghost_band)', () => {
  it('reads next to nothing on a clean head, and a ghost at any N/k shift along either axis', () => {
    const clean = measures(phantomVolume(head(), 'MR')).ghost_band!;
    expect(Math.abs(clean)).toBeLessThan(0.005);
    for (const [axis, every] of [
      ['x', 4],
      ['y', 4],
      ['x', 6],
      ['y', 3],
    ] as const) {
      const band = measures(phantomVolume(addPhaseGhosts(head(), axis, every, 0.5), 'MR')).ghost_band!;
      expect(band, `${axis} every ${every}`).toBeGreaterThan(review);
    }
  });

  it('is signed when the file names the phase axis: ghosts along the other one read below zero', () => {
    const alongY = addPhaseGhosts(head(), 'y', 4, 0.5);
    expect(measures({ ...phantomVolume(alongY, 'MR'), phaseEncoding: 'COL' }).ghost_band!).toBeGreaterThan(review);
    expect(measures({ ...phantomVolume(alongY, 'MR'), phaseEncoding: 'ROW' }).ghost_band!).toBeLessThan(-review);
  });

  it('fails the image with its own issue, which MRIQC’s half-field ghost-to-signal ratio does not see', () => {
    const metrics = measureQuality(phantomVolume(addPhaseGhosts(head(), 'x', 5, 0.8), 'MR'));
    expect(metrics.measures.ghosting!).toBeLessThan(QC_MODEL.families.MR.limits['mr-ghosting']!.review);
    const { verdict, issues } = assessQuality(metrics);
    expect(verdict).not.toBe('pass');
    expect(issues.join('\n')).toContain('Ghosts beside the head along the phase-encoding direction');
  });

  it('is left out where the head fills the field one way, and on a projection (an MIP)', () => {
    const full = addRicianNoise(cleanPhantom({ size: 64, foreground: 800, inner: 500, background: 0 }), 20, 4);
    // The ellipse stretched to touch the top and bottom of the field: no air above or below it.
    const tall: Phantom = { ...full, values: full.values.map((v, i) => (Math.abs((i % 64) - 32) < 18 ? v + 800 : v)) };
    expect(measures(phantomVolume(tall, 'MR')).ghost_band).toBeUndefined();
    const mip = { ...phantomVolume(head(), 'MR'), imageType: 'DERIVED\\SECONDARY\\PROJECTION IMAGE\\CSA MIP' };
    expect(measures(mip).ghost_band).toBeUndefined();
  });

  it.skipIf(!REAL_CLEAN.every(existsSync))(
    'stays below the review limit on the clinical MR of Debian’s packages',
    async () => {
      for (const path of REAL_CLEAN) {
        const volume = await decodeImage(new Uint8Array(readFileSync(path)), path.replace(/^.*?(\.[^/]*)$/, '$1'));
        const band = measures(volume).ghost_band;
        if (band !== undefined) expect(band, path).toBeLessThan(review);
      }
    },
  );
});
