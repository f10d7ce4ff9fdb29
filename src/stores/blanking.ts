import type { BlankingRegion, DeidentificationReportBody } from '../../contract/deidentification.ts';
import { api, errorMessage } from '../lib/api.ts';
import { previewPath } from '../lib/volume-preview-types.ts';

/** Blanking a large multi-frame file decodes and rewrites every frame: longer than an ordinary call may take. */
const BLANK_TIMEOUT_MS = 120_000;

/** What a de-identification action answered: the new report, or the message to show. */
export type ReportOutcome = { report: DeidentificationReportBody } | { error: string };

const imagePath = (storedFilename: string) => `/uploads/${encodeURIComponent(storedFilename)}/deidentification`;

/** The frame the blanking editor draws regions on, as a PNG. */
export function blankingFrame(storedFilename: string): Promise<Blob> {
  return api.get(`${imagePath(storedFilename)}/frame.png`).blob();
}

/**
 * Blanks `regions` in every frame of the image; once done, fetches its axial preview again past the browser's
 * cache, which may still hold the old pixels.
 */
export async function blankRegions(storedFilename: string, regions: BlankingRegion[]): Promise<ReportOutcome> {
  try {
    const report = await api
      .options({ signal: AbortSignal.timeout(BLANK_TIMEOUT_MS) })
      .post({ regions }, `${imagePath(storedFilename)}/regions`)
      .json<DeidentificationReportBody>();
    await api
      .options({ cache: 'reload' })
      .get(previewPath(storedFilename, 'axial'))
      .res()
      .catch(() => undefined);
    return { report };
  } catch (error) {
    return { error: errorMessage(error, 'The regions could not be blanked') };
  }
}

/** States that no burned-in text remains in the image, after blanking by hand. */
export async function confirmClean(storedFilename: string): Promise<ReportOutcome> {
  try {
    return {
      report: await api
        .url(`${imagePath(storedFilename)}/confirm`)
        .post()
        .json<DeidentificationReportBody>(),
    };
  } catch (error) {
    return { error: errorMessage(error, 'The image could not be confirmed') };
  }
}
