import { z } from './zod.ts';
import { previewAxis } from './imaging.ts';

/** Query of GET /uploads/{stored_filename}/preview.png. */
export const previewQuery = z.object({
  slice: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .optional()
    .describe('Slice index along the axis; the middle one when absent'),
  axis: previewAxis.default('axial').describe('Plane to cut a volume along'),
  volume: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .optional()
    .describe('Volume (time point) of a 4D image, from 0; the first when absent'),
});

/** Answer of GET /uploads/{stored_filename}/metadata. */
export const imageMetadata = z.object({
  format: z.string().describe('Normalised format: dcm, nii, nrrd, png, jpg, tiff, bmp, gif, webp'),
  modality: z.string().nullable().describe('DICOM modality code, when the file says'),
  dimensions: z.array(z.number().int()).length(3).describe('Width, height and slices (or frames)'),
  spacing: z.array(z.number()).length(3).describe('Voxel spacing in millimetres along x, y, z'),
  bit_depth: z.number().int().describe('Bits per stored sample'),
  photometric_interpretation: z.string().describe('MONOCHROME1, MONOCHROME2 or RGB'),
  channels: z.number().int().describe('1 for greyscale, 3 for colour'),
  slices: z.number().int().describe('Slices of a volume or frames of a multi-frame file'),
  time_points: z.number().int().optional().describe('Volumes (time points) of a 4D image; absent for a single volume'),
  orientation: z.string().nullable().describe('Axis codes (RAS, LPS…) or the DICOM slice plane'),
  study_description: z.string().nullable().describe('DICOM Study Description'),
  series_description: z.string().nullable().describe('DICOM Series Description or the NIfTI/NRRD description'),
  window: z.object({ center: z.number(), width: z.number() }).nullable().describe('Display window stored in the file'),
  deidentified: z.boolean().describe('True when identifying DICOM attributes were removed on arrival'),
  sop_class: z.string().nullable().optional().describe('DICOM SOP class by name (its UID when the name is unknown)'),
  sop_class_uid: z.string().nullable().optional().describe('DICOM SOP Class UID'),
  study_instance_uid: z.string().nullable().optional().describe('DICOM Study Instance UID'),
  series_instance_uid: z.string().nullable().optional().describe('DICOM Series Instance UID'),
  content_date: z.string().nullable().optional().describe('DICOM Content Date as YYYY-MM-DD'),
  references: z
    .array(z.string())
    .optional()
    .describe('What a DICOM object without pixels refers to: instances, series, frames of reference'),
  no_preview_reason: z
    .string()
    .nullable()
    .optional()
    .describe('Why there is no preview: a DICOM object without pixels (a report, a plan, a waveform)'),
});
export type ImageMetadata = z.infer<typeof imageMetadata>;
