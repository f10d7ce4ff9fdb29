import { spawnSync } from 'node:child_process';
import type { ReportRegion } from './deidentify-report.ts';
import { stringValue, ushortValue, type DicomDataSet } from './dicom-dataset.ts';

/** Transfer syntaxes whose pixel data is stored as plain samples, which can be blanked in place. */
const NATIVE = new Set(['1.2.840.10008.1.2', '1.2.840.10008.1.2.1', '1.2.840.10008.1.2.2', '1.2.840.10008.1.2.1.99']);

/** Most frames read by OCR: text overlays of a cine loop stay where they are, so a few frames find them. */
const FRAMES_READ = 4;

/** Words read with less confidence than this, or with fewer than two letters or digits, are noise. */
const MIN_CONFIDENCE = 60;

/** What checking a file's pixels for burned-in text gave. */
export interface BurnedInResult {
  status: 'not-checked' | 'none-found' | 'blanked' | 'not-cleanable';
  regions: ReportRegion[];
  /** The pixel data with every region blanked in every frame, when something was blanked. */
  pixels?: Uint8Array;
}

/**
 * Whether a file must be checked for text in its pixels: it says it has some (Burned In Annotation YES), or it
 * is of a kind that commonly does (ultrasound, secondary and screen captures).
 */
export function mayCarryBurnedInText(dataSet: DicomDataSet): boolean {
  const annotation = stringValue(dataSet, 'x00280301')?.toUpperCase();
  if (annotation === 'YES') return true;
  if (annotation === 'NO') return false;
  const sopClass = stringValue(dataSet, 'x00080016') ?? '';
  const modality = stringValue(dataSet, 'x00080060');
  return (
    modality === 'US' ||
    sopClass.startsWith('1.2.840.10008.5.1.4.1.1.7') ||
    sopClass.startsWith('1.2.840.10008.5.1.4.1.1.3')
  );
}

interface Layout {
  rows: number;
  columns: number;
  samples: number;
  bytesPerSample: number;
  frames: number;
  planar: boolean;
  little: boolean;
}

function layoutOf(dataSet: DicomDataSet, little: boolean): Layout | undefined {
  const rows = ushortValue(dataSet, 'x00280010', 0);
  const columns = ushortValue(dataSet, 'x00280011', 0);
  const samples = ushortValue(dataSet, 'x00280002', 1);
  const bits = ushortValue(dataSet, 'x00280100', 0);
  const frames = Math.max(1, Number.parseInt(stringValue(dataSet, 'x00280008') ?? '1', 10) || 1);
  const planar = ushortValue(dataSet, 'x00280006', 0) === 1;
  if (!rows || !columns || (bits !== 8 && bits !== 16) || (samples !== 1 && samples !== 3)) return undefined;
  return { rows, columns, samples, bytesPerSample: bits / 8, frames, planar, little };
}

/** One frame as 8-bit grey, stretched between its darkest and brightest sample, for the OCR engine. */
function greyFrame(pixels: Uint8Array, layout: Layout, frame: number): Uint8Array {
  const { rows, columns, samples, bytesPerSample, planar, little } = layout;
  const frameBytes = rows * columns * samples * bytesPerSample;
  const view = new DataView(pixels.buffer, pixels.byteOffset + frame * frameBytes, frameBytes);
  const count = rows * columns;
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let sum = 0;
    for (let s = 0; s < samples; s++) {
      const index = planar ? s * count + i : i * samples + s;
      sum += bytesPerSample === 1 ? view.getUint8(index) : view.getUint16(index * 2, little);
    }
    values[i] = sum / samples;
  }
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const grey = new Uint8Array(count);
  const range = max - min || 1;
  for (let i = 0; i < count; i++) grey[i] = Math.round(((values[i]! - min) / range) * 255);
  return grey;
}

/** A word the OCR engine read, and where. */
export type Word = Omit<ReportRegion, 'frame'> & { text: string };

/**
 * Words the OCR engine (Debian's tesseract) reads in an 8-bit grey image, as boxes; undefined when the engine
 * is not installed or fails. The engine runs as its own process: it is not a library this server links.
 */
export function readWords(grey: Uint8Array, width: number, height: number): Word[] | undefined {
  const image = Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), grey]);
  const run = spawnSync('tesseract', ['stdin', 'stdout', '--psm', '11', 'tsv'], {
    input: image,
    encoding: 'utf8',
    timeout: 60_000,
    // One thread: the machine's cores are shared with every other upload.
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
  });
  if (run.error || run.status !== 0) return undefined;
  const words: Word[] = [];
  for (const line of run.stdout.split('\n').slice(1)) {
    const cells = line.split('\t');
    if (cells[0] !== '5') continue;
    const [left, top, w, h, confidence] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    const text = (cells[11] ?? '').trim();
    if (confidence < MIN_CONFIDENCE || (text.match(/[A-Za-z0-9]/g) ?? []).length < 2) continue;
    words.push({ x: left, y: top, width: w, height: h, text });
  }
  return words;
}

/** A copy of the pixel data with each region (grown by a margin) set to zero in every frame. */
function blank(pixels: Uint8Array, layout: Layout, regions: Omit<ReportRegion, 'frame'>[]): Uint8Array {
  const out = pixels.slice();
  const { rows, columns, samples, bytesPerSample, frames, planar } = layout;
  const count = rows * columns;
  const frameBytes = count * samples * bytesPerSample;
  const margin = 2;
  for (let frame = 0; frame < frames; frame++) {
    for (const r of regions) {
      for (let y = Math.max(0, r.y - margin); y < Math.min(rows, r.y + r.height + margin); y++) {
        for (let x = Math.max(0, r.x - margin); x < Math.min(columns, r.x + r.width + margin); x++) {
          for (let s = 0; s < samples; s++) {
            const index = planar ? s * count + y * columns + x : (y * columns + x) * samples + s;
            out.fill(0, frame * frameBytes + index * bytesPerSample, frame * frameBytes + (index + 1) * bytesPerSample);
          }
        }
      }
    }
  }
  return out;
}

/**
 * Checks the pixels of a file that may carry burned-in text (see mayCarryBurnedInText) with OCR and blanks every
 * word found, in every frame. Native (uncompressed) pixel data only: compressed pixels cannot be rewritten here,
 * so such a file that says it has burned-in text is "not-cleanable", as is one whose text is found when the pixel
 * layout is not one this can rewrite.
 */
export function checkBurnedInText(dataSet: DicomDataSet, syntax: string): BurnedInResult {
  const says = stringValue(dataSet, 'x00280301')?.toUpperCase() === 'YES';
  if (!mayCarryBurnedInText(dataSet)) return { status: 'not-checked', regions: [] };
  const element = dataSet.elements.x7fe00010;
  const little = syntax !== '1.2.840.10008.1.2.2';
  const layout = layoutOf(dataSet, little);
  const unreadable: BurnedInResult = { status: says ? 'not-cleanable' : 'not-checked', regions: [] };
  if (!element || element.encapsulatedPixelData || !NATIVE.has(syntax) || !layout) return unreadable;
  const pixels = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length);
  const frameBytes = layout.rows * layout.columns * layout.samples * layout.bytesPerSample;
  if (pixels.length < frameBytes * layout.frames) return unreadable;
  const step = Math.max(1, Math.floor(layout.frames / FRAMES_READ));
  const regions: ReportRegion[] = [];
  for (let frame = 0; frame < layout.frames && regions.length < 500; frame += step) {
    const words = readWords(greyFrame(pixels, layout, frame), layout.columns, layout.rows);
    if (!words) return unreadable;
    // Where, not what: the words themselves are what is being removed.
    regions.push(...words.map(({ x, y, width, height }) => ({ frame, x, y, width, height })));
    if (frame / step + 1 >= FRAMES_READ) break;
  }
  if (regions.length === 0) return { status: 'none-found', regions };
  return { status: 'blanked', regions, pixels: blank(pixels, layout, regions) };
}
