// The labelled corpus: clean and degraded images per family, generated from a seed, and the real tier
// (Debian's pydicom, nibabel, GDCM and dicom3tools example files) with the same degradations.
import { existsSync, readFileSync } from 'node:fs';
import { decodeImage } from '../../server/imaging/decode-image.ts';
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import type { Degradation } from '../../server/imaging/qc-detectors.ts';
import type { ImageVolume } from '../../server/imaging/volume.ts';
import { DEGRADATIONS, degrade, type Strength } from './degrade.ts';
import { GENERATORS, type GeneratorSettings } from './generate.ts';
import { rng } from './image-ops.ts';

/** One labelled image. */
export interface Sample {
  family: ModalityFamily;
  kind: Degradation | 'clean';
  strength?: Strength;
  tier: 'synthetic' | 'real';
  name: string;
  volume: ImageVolume;
}

/** How many images a split holds per family: clean ones, and per degradation and strength. */
export interface SplitSize {
  clean: number;
  perDegradation: number;
}

export const FAMILIES: ModalityFamily[] = ['CT', 'MR', 'XR', 'US', 'NM', 'SM'];

/** The held-out split bench/qc-accuracy scores: seed 2, drawn with the held-out generator settings. */
export const HELD_OUT = { seed: 2, size: { clean: 100, perDegradation: 10 } };

/** A synthetic split: every image drawn from `seed` and `settings`, one at a time to keep memory flat. */
export function* syntheticSplit(
  seed: number,
  settings: GeneratorSettings,
  size: SplitSize,
  only: ModalityFamily[] = FAMILIES,
): Generator<Sample> {
  for (const [f, family] of FAMILIES.entries()) {
    if (!only.includes(family)) continue;
    const r = rng(seed * 1000 + f);
    for (let i = 0; i < size.clean; i++)
      yield {
        family,
        kind: 'clean',
        tier: 'synthetic',
        name: `${family}-clean-${i}`,
        volume: GENERATORS[family](r, settings),
      };
    for (const kind of DEGRADATIONS[family])
      for (const strength of ['mild', 'strong'] as const)
        for (let i = 0; i < size.perDegradation; i++) {
          const clean = GENERATORS[family](r, settings);
          yield {
            family,
            kind,
            strength,
            tier: 'synthetic',
            name: `${family}-${kind}-${strength}-${i}`,
            volume: degrade(clean, family, kind, strength, r),
          };
        }
  }
}

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const NIBABEL = '/usr/lib/python3/dist-packages/nibabel';

/** Clean images this project did not make, from Debian packages, with the family they are judged as. */
export const REAL_IMAGES: { path: string; family: ModalityFamily }[] = [
  { path: `${PYDICOM}/CT_small.dcm`, family: 'CT' },
  { path: `${PYDICOM}/693_J2KI.dcm`, family: 'CT' },
  { path: `${PYDICOM}/J2K_pixelrep_mismatch.dcm`, family: 'CT' },
  { path: `${PYDICOM}/MR_small.dcm`, family: 'MR' },
  { path: '/usr/share/doc/dicom3tools/examples/0051.dcm', family: 'MR' },
  { path: `${NIBABEL}/tests/data/anatomical.nii`, family: 'MR' },
  { path: `${NIBABEL}/tests/data/example4d.nii.gz`, family: 'MR' },
  { path: `${PYDICOM}/JPEG2000.dcm`, family: 'NM' },
  { path: '/usr/share/doc/libgdcm3.0/examples/00191113.dcm', family: 'XR' },
];

/** The real tier: each real clean image, then every degradation of its family at both strengths. */
export async function* realTier(seed: number): AsyncGenerator<Sample> {
  const r = rng(seed);
  for (const { path, family } of REAL_IMAGES) {
    if (!existsSync(path)) continue;
    const name = path.split('/').pop()!;
    let volume: ImageVolume;
    try {
      volume = await decodeImage(new Uint8Array(readFileSync(path)), name.replace(/^[^.]*/, ''));
    } catch {
      continue;
    }
    yield { family, kind: 'clean', tier: 'real', name, volume };
    for (const kind of DEGRADATIONS[family])
      for (const strength of ['mild', 'strong'] as const)
        yield {
          family,
          kind,
          strength,
          tier: 'real',
          name: `${name} ${kind} ${strength}`,
          volume: degrade(volume, family, kind, strength, r),
        };
  }
}
