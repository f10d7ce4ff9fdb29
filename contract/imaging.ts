import { z } from './zod.ts';

/** The planes a volume can be cut along for a preview. */
export const previewAxis = z.enum(['axial', 'coronal', 'sagittal']);
export type PreviewAxis = z.infer<typeof previewAxis>;

/** Quality measurements of one image (the built-in engine's inputs). */
export const qualityMetrics = z.object({
  modality: z.string().describe('DICOM modality code of the image (MR, CT, CR, US, PT, NM, SM, OT…)'),
  family: z
    .enum(['CT', 'MR', 'XR', 'US', 'NM', 'SM'])
    .describe('Family the image is judged as: CT, MR, XR (projection radiography), US, NM (PET/NM), SM (slides)'),
  measures: z
    .record(z.string(), z.number())
    .describe('The family’s own measurements (CT noise in HU, MR SNR and CJV, slide tissue coverage…), all finite'),
  protocol: z.string().optional().describe('DICOM Protocol Name, when the file gives one'),
  dimensions: z.array(z.number().int()).length(3).describe('Width, height and slices measured'),
  foregroundFraction: z.number().describe('Fraction of voxels in the Otsu foreground mask'),
  noiseSigma: z.number().describe('Background noise standard deviation (Rayleigh-corrected for MR magnitude)'),
  noiseModel: z.enum(['gaussian', 'rayleigh', 'laplacian']).describe('How the noise was estimated'),
  snr: z.number().describe('Mean foreground over noise sigma'),
  cnr: z.number().describe('Foreground–background contrast over noise sigma'),
  efc: z.number().describe("Entropy focus criterion (MRIQC's definition); higher means more ghosting and blur"),
  fber: z.number().describe("Foreground–background energy ratio (MRIQC's definition); higher is better"),
  sharpness: z.number().describe('Scale-normalised variance of the Laplacian (×1000); higher is sharper'),
  clippedFraction: z.number().describe('Fraction of voxels at the intensity extremes'),
  dynamicRangeUsed: z.number().describe('Share of the stored range spanned by the 0.5–99.5 percentiles'),
  ghostRatio: z.number().describe('Ghost-to-signal ratio at half the field of view'),
  colour: z
    .object({
      focus: z.number().describe('Histology focus (variance of the Laplacian of the tissue, ×1000)'),
      tissueCoverage: z.number().describe('Fraction of the slide covered by tissue'),
      colourCast: z.number().describe('Deviation of the empty slide from neutral white, 0–1'),
    })
    .optional()
    .describe('Histology measures, for colour images only'),
});
export type QualityMetricsDto = z.infer<typeof qualityMetrics>;
