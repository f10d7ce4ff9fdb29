import type dicomParser from 'dicom-parser';
import { numberValue, stringValue, ushortValue, type DicomDataSet } from './dicom-dataset.ts';
import { sopClassName } from './sop-classes.ts';

/** What any DICOM object says about itself, image or not (a report, a plan, a waveform, a directory). */
export interface DicomObjectDescription {
  sopClassUid?: string;
  /** The SOP class by name (such as "RT Plan"), or its UID when the name is not known. */
  sopClass?: string;
  modality?: string;
  studyInstanceUid?: string;
  seriesInstanceUid?: string;
  studyDescription?: string;
  seriesDescription?: string;
  /** Content Date (else Instance Creation Date) as YYYY-MM-DD. */
  contentDate?: string;
  /** The instances, series and frames of reference it points to, as "RT Structure Set 1.2.3…". */
  references: string[];
  hasPixels: boolean;
  /** Columns, rows and frames the header declares (zeros for an object without an image). */
  dimensions: [number, number, number];
  bitsStored: number;
  photometric?: string;
}

const PIXEL_TAGS = ['x7fe00010', 'x7fe00008', 'x7fe00009'];
const MAX_REFERENCES = 20;

/** True when the data set holds pixel data (integer, float or double). */
export function hasPixelData(dataSet: DicomDataSet): boolean {
  return PIXEL_TAGS.some((tag) => dataSet.elements[tag] !== undefined);
}

function isoDate(value: string | undefined): string | undefined {
  const match = value && /^(\d{4})(\d{2})(\d{2})/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

// Walks every item of every sequence: references sit inside them (Referenced SOP Sequence and kin).
function collectReferences(dataSet: DicomDataSet, into: Set<string>, depth = 0): void {
  if (depth > 16) return;
  const instance = stringValue(dataSet, 'x00081155');
  if (instance) {
    const referencedClass = stringValue(dataSet, 'x00081150');
    const label = sopClassName(referencedClass) ?? referencedClass ?? 'Instance';
    for (const uid of instance.split('\\')) into.add(`${label} ${uid}`);
  }
  const frame = stringValue(dataSet, 'x30060024');
  if (frame) into.add(`Frame of Reference ${frame}`);
  for (const [tag, element] of Object.entries(dataSet.elements) as [string, dicomParser.Element][]) {
    if (tag === 'x00081115' || tag === 'x30060014') {
      for (const item of element.items ?? []) {
        const series = item.dataSet && stringValue(item.dataSet, 'x0020000e');
        if (series) into.add(`Series ${series}`);
      }
    }
    for (const item of element.items ?? []) if (item.dataSet) collectReferences(item.dataSet, into, depth + 1);
  }
}

/** Describes a parsed DICOM object by its identifying attributes, for objects with or without pixels. */
export function describeDicomObject(dataSet: DicomDataSet): DicomObjectDescription {
  const sopClassUid = stringValue(dataSet, 'x00080016') ?? stringValue(dataSet, 'x00020002');
  const references = new Set<string>();
  collectReferences(dataSet, references);
  const list = [...references];
  return {
    sopClassUid,
    sopClass: sopClassName(sopClassUid) ?? sopClassUid,
    modality: stringValue(dataSet, 'x00080060'),
    studyInstanceUid: stringValue(dataSet, 'x0020000d'),
    seriesInstanceUid: stringValue(dataSet, 'x0020000e'),
    studyDescription: stringValue(dataSet, 'x00081030'),
    seriesDescription: stringValue(dataSet, 'x0008103e'),
    contentDate: isoDate(stringValue(dataSet, 'x00080023') ?? stringValue(dataSet, 'x00080012')),
    references:
      list.length > MAX_REFERENCES
        ? [...list.slice(0, MAX_REFERENCES), `and ${list.length - MAX_REFERENCES} more`]
        : list,
    hasPixels: hasPixelData(dataSet),
    dimensions: [
      ushortValue(dataSet, 'x00280011', 0),
      ushortValue(dataSet, 'x00280010', 0),
      hasPixelData(dataSet) ? Math.max(1, Math.round(numberValue(dataSet, 'x00280008', 1))) : 0,
    ],
    bitsStored: ushortValue(dataSet, 'x00280101', 0),
    photometric: stringValue(dataSet, 'x00280004'),
  };
}

/**
 * Why an object without pixels has no preview, in words for the details modal and error answers.
 * @example noImageReason({ sopClass: 'RT Plan', modality: 'RTPLAN', … })
 * // 'This DICOM object (RT Plan, RTPLAN) holds no pixel data, so there is nothing to preview or check.'
 */
export function noImageReason(description: DicomObjectDescription): string {
  const what = [description.sopClass ?? 'unnamed SOP class', description.modality].filter(Boolean).join(', ');
  return `This DICOM object (${what}) holds no pixel data, so there is nothing to preview or check.`;
}
