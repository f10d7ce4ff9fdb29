import type { BurnedInStatus, ReportRegion } from './deidentify-report.ts';
import { blankRegions } from './blank-regions.ts';
import { stringValue, type DicomDataSet } from './dicom-dataset.ts';
import { OcrUnavailableError, readWords } from './ocr-engine.ts';
import { readSampleFrames, sampleLayoutOf, type SampleFrames, type SampleLayout } from './pixel-frames.ts';

/** Most frames read by OCR: text overlays of a cine loop stay where they are, so a few frames find them. */
const FRAMES_READ = 4;

/** What checking a file's pixels for burned-in text gave. */
export interface BurnedInResult {
  status: BurnedInStatus;
  regions: ReportRegion[];
  /** Why a file that may carry burned-in text could not be checked ("burned-in text could not be checked: …"). */
  reason?: string;
  /** Every frame's samples with every region blanked, when something was blanked (decoded if it was compressed). */
  blanked?: SampleFrames;
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

/** One frame as 8-bit grey, stretched between its darkest and brightest sample, for the OCR engine. */
function greyFrame(pixels: Uint8Array, layout: SampleLayout, frame: number): Uint8Array {
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

/** Pixels around each word also blanked: OCR boxes hug the glyphs, and antialiasing spills past them. */
const MARGIN = 2;

/** The result for a file that may carry burned-in text and could not be read by OCR: never taken as clean. */
function notCheckable(why: string): BurnedInResult {
  return { status: 'not-checkable', regions: [], reason: `burned-in text could not be checked: ${why}` };
}

/**
 * Checks the pixels of a file that may carry burned-in text (see mayCarryBurnedInText) with OCR and blanks every
 * word found, in every frame. Compressed pixel data is decoded first (the frames read, then every frame when
 * something is to be blanked), and the blanked samples are handed back to be written uncompressed (see
 * pixel-rewrite.ts). It fails closed: a file that says it has burned-in text is "not-cleanable" when its pixels
 * cannot be read (a codec this server lacks, damaged data, a layout blanking does not handle), and any other file
 * that may carry text is "not-checkable", with the reason, when its pixels cannot be read or the OCR engine fails.
 */
export async function checkBurnedInText(dataSet: DicomDataSet, syntax: string): Promise<BurnedInResult> {
  const says = stringValue(dataSet, 'x00280301')?.toUpperCase() === 'YES';
  if (!mayCarryBurnedInText(dataSet)) return { status: 'not-checked', regions: [] };
  // No pixels, nothing burned into them.
  if (!dataSet.elements.x7fe00010) return { status: says ? 'not-cleanable' : 'not-checked', regions: [] };
  const unreadable: BurnedInResult = says
    ? { status: 'not-cleanable', regions: [] }
    : notCheckable('its pixel data could not be decoded here');
  const layout = sampleLayoutOf(dataSet, syntax);
  if (!layout) return unreadable;
  const step = Math.max(1, Math.floor(layout.frames / FRAMES_READ));
  const read: number[] = [];
  for (let frame = 0; frame < layout.frames && read.length < FRAMES_READ; frame += step) read.push(frame);
  let sampled: SampleFrames | undefined;
  try {
    sampled = await readSampleFrames(dataSet, syntax, read);
  } catch {
    return unreadable;
  }
  if (!sampled) return unreadable;
  const regions: ReportRegion[] = [];
  for (const [i, frame] of read.entries()) {
    let words;
    try {
      words = await readWords(greyFrame(sampled.bytes, sampled.layout, i), layout.columns, layout.rows);
    } catch (error) {
      if (error instanceof OcrUnavailableError) return notCheckable(error.message);
      throw error;
    }
    // Where, not what: the words themselves are what is being removed.
    regions.push(...words.map(({ x, y, width, height }) => ({ frame, x, y, width, height })));
    if (regions.length >= 500) break;
  }
  if (regions.length === 0) return { status: 'none-found', regions };
  let all: SampleFrames | undefined;
  try {
    all = await readSampleFrames(dataSet, syntax);
  } catch {
    return { status: 'not-cleanable', regions };
  }
  if (!all) return { status: 'not-cleanable', regions };
  // The samples are a copy (readSampleFrames never hands back a view into the upload).
  blankRegions(all.bytes, all.layout, regions, MARGIN);
  return { status: 'blanked', regions, blanked: all };
}
