// CT slices made by code for the bombs benchmark's series of real-looking slices (see bench/bombs.ts): a
// series' slices share one pixel element, so six hundred megabytes of them are made in a moment.
import { writeDicomFile, writeElements, type FixtureElement } from '../../tests/fixtures/dicom-writer.ts';
import { noise } from '../../tests/fixtures/ingest-attacks.ts';

/** The elements of CT slice `index` of one series, `size` x `size` 16-bit, with a patient name to de-identify. */
function ctSliceElements(index: number, size = 512): FixtureElement[] {
  const series = '1.2.826.0.1.3680043.8.498.7735';
  return [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
    { tag: '00080018', vr: 'UI', value: `${series}.${String(index + 1).padStart(5, '0')}` },
    { tag: '00080060', vr: 'CS', value: 'CT' },
    { tag: '00100010', vr: 'PN', value: 'ROE^RICHARD' },
    { tag: '00100020', vr: 'LO', value: 'MRN-7735' },
    { tag: '0020000D', vr: 'UI', value: `${series}.1` },
    { tag: '0020000E', vr: 'UI', value: `${series}.2` },
    { tag: '00200013', vr: 'IS', value: String(index + 1).padStart(5, '0') },
    { tag: '00200032', vr: 'DS', value: `-256\\-256\\${String(index).padStart(6, '0')}` },
    { tag: '00200037', vr: 'DS', value: '1\\0\\0\\0\\1\\0' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [size] },
    { tag: '00280011', vr: 'US', value: [size] },
    { tag: '00280030', vr: 'DS', value: '0.7\\0.7' },
    { tag: '00180050', vr: 'DS', value: '1' },
    { tag: '00280100', vr: 'US', value: [16] },
    { tag: '00280101', vr: 'US', value: [12] },
    { tag: '00280102', vr: 'US', value: [11] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '00281052', vr: 'DS', value: '-1024' },
    { tag: '00281053', vr: 'DS', value: '1' },
  ];
}

/** A `size` x `size` CT slice's pixel data element: air around a body disc of soft tissue with a little grain. */
export function ctPixelElement(size = 512): Uint8Array {
  const [centre, radius] = [size / 2, (size * 180) / 512];
  const pixels = Buffer.alloc(size * size * 2);
  const grain = noise(size * size, 35);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const body = (x - centre) ** 2 + (y - centre) ** 2 < radius ** 2;
      pixels.writeUInt16LE(body ? 1064 + ((grain[y * size + x]! & 63) === 0 ? 1 : 0) : 24, (y * size + x) * 2);
    }
  const element = writeElements([{ tag: '7FE00010', vr: 'OW', value: new Uint8Array(pixels) }], true, true);
  return element;
}

/** One whole CT slice file (Part 10, explicit VR little endian, `size` square): a series' slices differ only in their numbers. */
export function ctSliceFile(index: number, size = 512, pixelElement = ctPixelElement(size)): Uint8Array {
  const head = writeDicomFile({ syntax: 'explicit-le', elements: ctSliceElements(index, size) });
  return new Uint8Array(Buffer.concat([head, pixelElement]));
}
