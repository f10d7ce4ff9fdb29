// How each of the quality engine's measurements is named and what unit it is in: the server writes its
// summaries with it, and the Analysis page's CSV export heads a column per measurement with its unit.

/** How a measurement is named and formatted in the summary. */
export interface MeasureLabel {
  label: string;
  unit: string;
  /** Shown as a percentage (value × 100). */
  percent?: boolean;
  digits: number;
  /** The unit as a CSV column heading gives it (values are stored as they are: fractions 0–1, not percent). */
  csv: string;
}

/** How each measurement is shown, keyed by its name in `metrics.measures`. */
export const MEASURE_LABELS: Record<string, MeasureLabel> = {
  noise_hu: { label: 'noise (SD in homogeneous tissue)', unit: ' HU', digits: 1, csv: 'HU' },
  air_hu: { label: 'air', unit: ' HU', digits: 0, csv: 'HU' },
  soft_tissue_hu: { label: 'soft tissue', unit: ' HU', digits: 0, csv: 'HU' },
  hu_error: { label: 'HU calibration error', unit: ' HU', digits: 0, csv: 'HU' },
  cnr: { label: 'CNR', unit: '', digits: 1, csv: 'ratio' },
  streaks: { label: 'streak amplitude', unit: ' HU', digits: 1, csv: 'HU' },
  metal_streaks: { label: 'streak amplitude about metal', unit: ' HU', digits: 1, csv: 'HU' },
  rings: { label: 'ring amplitude', unit: ' HU', digits: 1, csv: 'HU' },
  edge_width: { label: 'edge width (Gaussian sigma)', unit: ' px', digits: 2, csv: 'px' },
  recon_edge_width: { label: 'edge width of the reconstruction (Gaussian sigma)', unit: ' px', digits: 2, csv: 'px' },
  noise_grain: { label: 'grain of the counts noise (Gaussian sigma)', unit: ' px', digits: 2, csv: 'px' },
  tissue_noise_ratio: { label: 'tissue noise over background noise', unit: '', digits: 2, csv: 'ratio' },
  clipped: { label: 'clipped', unit: '%', percent: true, digits: 2, csv: 'fraction 0-1' },
  blur: { label: 'blur effect', unit: '', digits: 2, csv: 'index 0-1' },
  snr: { label: 'SNR (Rician-corrected)', unit: '', digits: 1, csv: 'ratio' },
  tissue_contrast: {
    label: 'tissue contrast (gap between tissue classes over the mean)',
    unit: '%',
    percent: true,
    digits: 0,
    csv: 'fraction of signal 0-1',
  },
  tissue_noise_balance: {
    label: 'bright tissue noise over dark tissue noise',
    unit: '',
    digits: 2,
    csv: 'ratio',
  },
  cjv: { label: 'CJV', unit: '', digits: 2, csv: 'ratio' },
  efc: { label: 'EFC', unit: '', digits: 2, csv: 'index 0-1' },
  fber: { label: 'FBER', unit: '', digits: 0, csv: 'ratio' },
  inu: { label: 'INU (bias-field spread)', unit: '', digits: 2, csv: 'ratio' },
  ghosting: { label: 'ghost-to-signal', unit: '%', percent: true, digits: 1, csv: 'fraction of signal 0-1' },
  background_structure: {
    label: 'background structure',
    unit: '%',
    percent: true,
    digits: 2,
    csv: 'fraction of signal 0-1',
  },
  ghost_band: {
    label: 'air beside the head along the phase axis, over the other axis',
    unit: '%',
    percent: true,
    digits: 1,
    csv: 'fraction of signal 0-1',
  },
  wrap_around: { label: 'object at the field edge', unit: '%', percent: true, digits: 1, csv: 'fraction 0-1' },
  exposure: {
    label: 'exposure (median of the field in the range)',
    unit: '%',
    percent: true,
    digits: 0,
    csv: 'fraction of range 0-1',
  },
  saturation: { label: 'saturated', unit: '%', percent: true, digits: 2, csv: 'fraction 0-1' },
  dynamic_range: { label: 'dynamic range used', unit: '%', percent: true, digits: 0, csv: 'fraction of range 0-1' },
  noise: { label: 'relative noise', unit: '%', percent: true, digits: 2, csv: 'fraction of field signal 0-1' },
  gain: { label: 'gain (mean brightness)', unit: '%', percent: true, digits: 0, csv: 'fraction of range 0-1' },
  speckle_snr: { label: 'speckle SNR', unit: '', digits: 2, csv: 'ratio' },
  depth_coverage: { label: 'depth coverage', unit: '%', percent: true, digits: 0, csv: 'fraction 0-1' },
  lit_rows: { label: 'rows with signal', unit: '%', percent: true, digits: 0, csv: 'fraction 0-1' },
  noise_floor: { label: 'noise floor', unit: '%', percent: true, digits: 0, csv: 'fraction 0-1' },
  counts_cv: { label: 'counts noise (CV)', unit: '%', percent: true, digits: 1, csv: 'fraction 0-1' },
  recon_counts_cv: {
    label: 'counts noise of the reconstruction (CV)',
    unit: '%',
    percent: true,
    digits: 1,
    csv: 'fraction 0-1',
  },
  tissue_coverage: { label: 'tissue coverage', unit: '%', percent: true, digits: 0, csv: 'fraction 0-1' },
  focus_blur: { label: 'blur effect on tissue', unit: '', digits: 2, csv: 'index 0-1' },
  pen_marks: { label: 'pen marks', unit: '%', percent: true, digits: 1, csv: 'fraction 0-1' },
  brightness: { label: 'tissue brightness', unit: '%', percent: true, digits: 0, csv: 'fraction 0-1' },
  contrast: { label: 'tissue contrast (SD)', unit: '%', percent: true, digits: 1, csv: 'fraction 0-1' },
  colour_cast: { label: 'glass colour cast', unit: '%', percent: true, digits: 1, csv: 'fraction 0-1' },
  stain_hue_offset: { label: 'stain hue off H&E', unit: '°', digits: 0, csv: 'degrees' },
};
