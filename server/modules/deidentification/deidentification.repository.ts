import { eq } from 'drizzle-orm';
import type { DeidentificationReportBody } from '../../../contract/deidentification.ts';
import type { Database } from '../../db/connect.ts';
import type { DeidentificationReport } from '../../imaging/dicom/deidentify-report.ts';
import { deidentificationReports } from './deidentification.table.ts';

/** The report as the API gives it. */
export function toReportBody(report: DeidentificationReport): DeidentificationReportBody {
  return {
    profile: report.profile,
    iod: report.iod,
    removed: report.removed,
    emptied: report.emptied,
    replaced: report.replaced,
    uid_attributes: report.uidAttributes,
    uids_remapped: report.uidsRemapped,
    private_tags_dropped: report.privateTagsDropped,
    burned_in_text: report.burnedInText,
    burned_in_reason: report.burnedInReason ?? null,
    burned_in_regions: report.burnedInRegions,
    burned_in_annotation: report.burnedInAnnotation ?? null,
    blanked_regions: (report.blankedRegions ?? []).map(({ blankedAt, ...rect }) => ({
      ...rect,
      blanked_at: blankedAt,
    })),
    pixel_data_decompressed: report.pixelDataDecompressed ?? false,
    confirmed_clean: report.confirmedClean ? { by: report.confirmedClean.name, at: report.confirmedClean.at } : null,
  };
}

/** Reads and writes de-identification reports. */
export function createDeidentificationRepository({ db }: { db: Database }) {
  return {
    /** The insert keeping the report of one upload, not run: for the statement that records the upload. */
    insertOf(uploadId: string, report: DeidentificationReport) {
      return db.insert(deidentificationReports).values({ uploadId, report });
    },
    /** Keeps the report of one upload. */
    async insert(uploadId: string, report: DeidentificationReport): Promise<void> {
      await db.insert(deidentificationReports).values({ uploadId, report });
    },
    /** Replaces the report of one upload (after its pixels were blanked again). */
    async update(uploadId: string, report: DeidentificationReport): Promise<void> {
      await db.update(deidentificationReports).set({ report }).where(eq(deidentificationReports.uploadId, uploadId));
    },
    /** The report of one upload, or undefined when it has none (not DICOM, or kept as sent). */
    async find(uploadId: string): Promise<DeidentificationReport | undefined> {
      const [row] = await db
        .select({ report: deidentificationReports.report })
        .from(deidentificationReports)
        .where(eq(deidentificationReports.uploadId, uploadId))
        .limit(1);
      return row?.report;
    },
  };
}
