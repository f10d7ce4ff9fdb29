import type dicomParser from 'dicom-parser';
import { numberValue, type DicomDataSet } from './dicom-dataset.ts';

/** Modality rescale of one frame: slope and intercept. */
export interface Rescale {
  slope: number;
  intercept: number;
}

// Pixel Value Transformation Sequence (0028,9145) of one functional-groups item, if it has one.
function transformOf(item: dicomParser.Element | undefined): DicomDataSet | undefined {
  return item?.dataSet?.elements.x00289145?.items?.[0]?.dataSet;
}

/**
 * The rescale of frame `frame`: the top-level Rescale Slope and Intercept, else those of the frame's
 * Per-frame Functional Groups, else of the Shared Functional Groups (enhanced multi-frame images), else 1 and 0.
 */
export function rescaleOf(dataSet: DicomDataSet, frame: number): Rescale {
  const from = (set: DicomDataSet): Rescale => ({
    slope: numberValue(set, 'x00281053', 1) || 1,
    intercept: numberValue(set, 'x00281052', 0),
  });
  if (dataSet.elements.x00281053 || dataSet.elements.x00281052) return from(dataSet);
  const perFrame = transformOf(dataSet.elements.x52009230?.items?.[frame]);
  if (perFrame) return from(perFrame);
  const shared = transformOf(dataSet.elements.x52009229?.items?.[0]);
  return shared ? from(shared) : { slope: 1, intercept: 0 };
}
