import { MEASURE_LABELS, type MeasureLabel } from '../../contract/qc-measures.ts';
import type { ModalityFamily } from './metrics/modality.ts';

export { MEASURE_LABELS, type MeasureLabel };

/** A kind of degradation the engine is trained to find (the labels of the development corpus). */
export type Degradation =
  | 'noise'
  | 'blur'
  | 'motion'
  | 'ghosting'
  | 'clipping'
  | 'low-contrast'
  | 'streaks'
  | 'rings'
  | 'calibration'
  | 'under-exposure'
  | 'over-exposure'
  | 'wrap-around'
  | 'shallow-depth'
  | 'colour-cast'
  | 'blank-slide'
  | 'pen-marks';

/**
 * One check: a measurement, the side on which it goes wrong, the degradations it is meant to catch, and
 * what is said and advised when it does. The limits themselves are fitted on the corpus (qc-model.ts).
 */
export interface Detector {
  id: string;
  measure: string;
  /** 'high': too high is wrong; 'low': too low is wrong. */
  direction: 'high' | 'low';
  targets: Degradation[];
  /** The issue as written in the summary. */
  issue: string;
  fix: string;
  /**
   * Where the fitted review limit may lie, on the measure's own scale: the corpus decides within what the
   * modality allows (a stain hue a few degrees off is not a finding however uniform the training slides were).
   */
  bounds?: [number, number];
  /**
   * The DICOM modalities (0008,0060) the detector judges, when it holds for part of its family only (a
   * fluoroscopy run is not a radiograph); all of the family's when absent.
   */
  only?: readonly string[];
  /** The modalities it leaves to another detector of the family. */
  except?: readonly string[];
}

const d = (
  id: string,
  measure: string,
  direction: 'high' | 'low',
  targets: Degradation[],
  issue: string,
  fix: string,
  bounds?: [number, number],
  scope?: Pick<Detector, 'only' | 'except'>,
): Detector => ({ id, measure, direction, targets, issue, fix, bounds, ...scope });

/** Whether detector `d` judges an image of DICOM modality `modality` (upper case, as QualityMetrics holds it). */
export function judges(d: Detector, modality: string): boolean {
  return !(d.only && !d.only.includes(modality)) && !d.except?.includes(modality);
}

/**
 * Fluoroscopy: X-ray angiography (XA) and radiofluoroscopy (RF), frames of a run rather than one exposure.
 */
const FLUOROSCOPY = ['XA', 'RF'];

/** The checks of each family, with advice that fits the modality (no coil advice for CT or a slide). */
export const DETECTORS: Record<ModalityFamily, Detector[]> = {
  CT: [
    d(
      'ct-noise',
      'noise_hu',
      'high',
      ['noise'],
      'High image noise',
      'Raise the dose (mAs or kV) for this patient size, use a smoother kernel or iterative reconstruction, or reconstruct thicker slices.',
      [25, 80],
    ),
    d(
      'ct-blur',
      'edge_width',
      'high',
      ['blur', 'motion'],
      'Blurred edges',
      'Check for patient motion, use a sharper reconstruction kernel and a shorter rotation time.',
      // Soft-kernel reconstructions of clinical CT have edges about 2 px wide (Debian's 512² examples: 1.8 px).
      [2.1, 3],
    ),
    d(
      'ct-streaks',
      'streaks',
      'high',
      ['streaks'],
      'Streak artefacts',
      'Look for metal or dense contrast in the field; use metal artefact reduction, a higher kV, or reposition the arms out of the scan plane.',
      [20, 120],
    ),
    d(
      'ct-metal-streaks',
      'metal_streaks',
      'high',
      ['streaks'],
      'Metal streak artefacts',
      'Use metal artefact reduction (or a dual-energy monoenergetic reconstruction), a higher kV, and tilt the gantry or reposition the part so fewer rays cross the metal.',
      // Bands of 20 HU or less are lost in the noise of a soft-tissue window.
      [20, 150],
    ),
    d(
      'ct-rings',
      'rings',
      'high',
      ['rings'],
      'Ring artefacts (about the rotation axis)',
      'A detector element is miscalibrated: run the scanner’s air calibration and call service if the rings persist.',
      [3, 8],
    ),
    d(
      'ct-clipping',
      'clipped',
      'high',
      ['clipping'],
      'Values clipped at a limit',
      'Export the full Hounsfield range rather than a windowed one, and check the extended CT scale for metal.',
      [0.005, 0.1],
    ),
    d(
      'ct-calibration',
      'hu_error',
      'high',
      ['calibration', 'low-contrast'],
      'Hounsfield units off calibration (air should be near -1000, soft tissue 0–60)',
      'Check the rescale slope and intercept of the export and run the scanner’s water phantom calibration.',
      [60, 300],
    ),
  ],
  MR: [
    d(
      'mr-snr',
      'snr',
      'low',
      ['noise'],
      'Low SNR',
      'Increase averages or voxel size, lower the bandwidth, or check the receive coil and its connection.',
    ),
    d(
      'mr-cjv',
      'cjv',
      'high',
      ['noise', 'low-contrast', 'blur'],
      'Poor tissue contrast (high CJV)',
      'Check the sequence parameters (TR, TE, flip angle) against the protocol and the coil selection.',
      [0.85, 2],
    ),
    d(
      'mr-blur',
      'edge_width',
      'high',
      ['blur'],
      'Blurred image',
      'Reduce motion (padding, instructions, shorter acquisition) and check the reconstruction filter.',
      // Clinical MR (dicom3tools' 360² example) has edges up to about 1.7 px wide.
      [1.2, 1.85],
    ),
    d(
      'mr-contrast',
      'tissue_noise_ratio',
      'low',
      ['low-contrast'],
      'Tissue contrast compressed (the tissue varies less than the background noise: intensities squeezed or smoothed after acquisition)',
      'Export the images as reconstructed, without a narrow window or smoothing filter, and check the sequence contrast (TR, TE, flip angle).',
      [0.5, 1.2],
    ),
    d(
      'mr-tissue-contrast',
      'tissue_contrast',
      'low',
      ['low-contrast'],
      'Little contrast between tissues (intensities squeezed after acquisition, or a sequence without contrast)',
      'Export the images as reconstructed, without a narrow window, and check the sequence contrast (TR, TE, flip angle).',
      // Clean clinical MR gives 21% (nibabel's anatomical.nii, T1 at 2 mm) to 130%.
      [0.06, 0.18],
    ),
    d(
      'mr-flat-tissue',
      'tissue_noise_balance',
      'low',
      ['low-contrast'],
      'Bright tissue flattened (it varies far less than the darker tissue: intensities squeezed or cut off after acquisition)',
      'Export the images as reconstructed, without a narrow window or smoothing filter.',
      // Clean clinical MR gives 0.5 (dicom3tools' 0051.dcm at half its matrix) to 1.6.
      [0.2, 0.35],
    ),
    d(
      'mr-ghosting',
      'ghosting',
      'high',
      ['ghosting'],
      'Ghosting along the phase-encoding direction',
      'Use saturation bands or flow compensation, check gradient calibration, and swap the phase-encoding direction.',
      [0.03, 0.2],
    ),
    d(
      'mr-motion',
      'background_structure',
      'high',
      ['motion', 'ghosting'],
      'Motion ghosts in the background',
      'Immobilise the patient, shorten the acquisition or use motion correction (navigators, PROPELLER/BLADE).',
      // A fraction of the head's signal: clean clinical MR holds 1.3% (dicom3tools' 360² example) to 5.2%
      // (pydicom's 64² MR_small, whose few blocks of air lie close to the head).
      [0.06, 0.3],
    ),
    d(
      'mr-ghost-band',
      'ghost_band',
      'high',
      ['motion', 'ghosting'],
      'Ghosts beside the head along the phase-encoding direction',
      'Repeat the scan with the patient still; ghosts that stay come from the scanner or from flow: check the gradient and receiver stability, use saturation bands or flow compensation, or swap the phase-encoding direction.',
      // A fraction of the head's signal. Clean images hold 0.2% or less where there is air beside the head
      // both ways (2.3% in pydicom's 64² MR_small, whose "air" is dark tissue); the corpus's mildest ghosts
      // 5.3%, so its midpoint would be 6%, where ghosts made in k-space (every n-th line weakened, or part of
      // the lines from a moved head) of 3.5–6% of the signal, plain to see, would pass.
      [0.03, 0.035],
    ),
    d(
      'mr-wrap',
      'wrap_around',
      'high',
      ['wrap-around'],
      'Wrap-around (aliasing) at the edge of the field of view',
      'Enlarge the field of view or use phase oversampling along the phase-encoding direction.',
      // A brain cropped tightly to a small matrix (nibabel's anatomical.nii, 33×41) agrees across its edges by 0.17.
      [0.2, 0.8],
    ),
    d(
      'mr-clipping',
      'clipped',
      'high',
      ['clipping'],
      'Clipped intensities',
      'Lower the receiver gain or export with a wider bit depth.',
      [0.01, 0.2],
    ),
  ],
  XR: [
    d(
      'xr-under',
      'exposure',
      'low',
      ['under-exposure'],
      'Under-exposed',
      'Raise the mAs (or use automatic exposure control) for this body part and size.',
    ),
    d(
      'xr-over',
      'exposure',
      'high',
      ['over-exposure'],
      'Over-exposed',
      'Lower the mAs or kV for this body part and check the automatic exposure control chamber selection.',
    ),
    d(
      'xr-saturation',
      'saturation',
      'high',
      ['over-exposure', 'clipping'],
      'Saturated detector areas',
      'Reduce the exposure and check collimation so direct exposure does not reach the region of interest.',
      [0.01, 0.2],
    ),
    d(
      'xr-range',
      'dynamic_range',
      'low',
      ['low-contrast'],
      'Narrow dynamic range used',
      'Check the exposure index and the processing (look-up table) applied before export.',
    ),
    d(
      'xr-noise',
      'noise',
      'high',
      ['noise'],
      'Noisy (quantum mottle)',
      'Raise the exposure; check the detector calibration (gain and offset maps).',
    ),
    d(
      'xr-blur',
      'edge_width',
      'high',
      ['blur', 'motion'],
      'Unsharp image',
      'Shorten the exposure time to avoid motion, use the small focal spot and keep the part close to the detector.',
      [1.5, 3.5],
      { except: FLUOROSCOPY },
    ),
    d(
      'xr-fluoro-blur',
      'edge_width',
      'high',
      ['blur', 'motion'],
      'Unsharp image',
      'Check the pulse width and frame rate for the moving anatomy, the recursive (temporal) filter setting, and the focus of the image chain (intensifier or flat panel, camera).',
      // A fluoroscopy frame is judged for gross blur only, as a planar NM frame is: its edges are soft by nature.
      // It is one low-dose frame of a run of moving anatomy (pulsation, swallowing, breathing), averaged with the
      // frames before it by the recursive filter that makes its noise bearable, through an intensifier and video
      // chain; a radiograph is one short exposure. GDCM's clinical neck run (00191113.dcm, 512² × 4 frames)
      // measures 3.5 px, each frame alike (its frames move against each other), on its soft-tissue and airway
      // boundaries: without the edges of its field (collimator blades, the intensifier's circular mask) it is
      // still 3.3 px, and its noise grain is fine (0.6 px), so the chain is not out of focus. The limit is fitted
      // on the radiographs and held within what fluoroscopy allows; one run cannot say how soft a clinically
      // fine run may be, so it sits a little above that run (its strongly smeared copy, 4.1 px, is found).
      [3.75, 5],
      { only: FLUOROSCOPY },
    ),
  ],
  US: [
    d(
      'us-gain-low',
      'gain',
      'low',
      ['under-exposure'],
      'Gain too low (image too dark)',
      'Raise the overall gain or the time-gain compensation.',
    ),
    d(
      'us-gain-high',
      'gain',
      'high',
      ['over-exposure'],
      'Gain too high (image too bright)',
      'Lower the overall gain so tissue texture and anechoic structures can be told apart.',
    ),
    d(
      'us-depth',
      'depth_coverage',
      'low',
      ['shallow-depth'],
      'Poor depth coverage (signal lost at depth)',
      'Use a lower-frequency transducer, adjust the time-gain compensation at depth, or add coupling gel.',
    ),
    d(
      'us-speckle',
      'speckle_snr',
      'high',
      ['blur', 'noise'],
      'Speckle statistics off (smoothed or noise-filled texture)',
      'Check the focal zone and any speckle-reduction or persistence setting, and look for electrical interference.',
    ),
    d(
      'us-blur',
      'blur',
      'high',
      ['blur'],
      'Blurred speckle',
      'Set the focal zone at the depth of interest and check the transducer lens.',
    ),
  ],
  NM: [
    d(
      'nm-noise',
      'counts_cv',
      'high',
      ['noise'],
      'Count-starved (noisy) image',
      'Acquire longer or with more activity per the protocol.',
      // A planar frame's pixels are raw counts, each with Poisson's CV of 1/√counts: a whole-body scan's few
      // million counts over its body's pixels leave 15–50 counts a pixel, 14–26%. Pydicom's whole-body scan
      // (3.6 million counts) measures 16.5% in its 76:1 JPEG copy (11% in the 2097:1 JPEG 2000 copy, whose
      // compression took its noise away). A reconstruction is smoothed by its filter and judged on its own.
      [0.25, 0.4],
    ),
    d(
      'nm-recon-noise',
      'recon_counts_cv',
      'high',
      ['noise'],
      'Count-starved (noisy) reconstruction',
      'Acquire longer or with more activity per the protocol, or reconstruct with more smoothing (fewer iterations, a wider post-filter).',
    ),
    d(
      'nm-blur',
      'edge_width',
      'high',
      ['blur', 'motion'],
      'Blurred image',
      'Check for patient motion, collimator choice and reconstruction filter.',
      // Planar images are smooth by nature (the collimator's resolution falls with depth): only gross blur is
      // judged on their edges (pydicom's whole-body example: 5.5 px, compressed 2097:1; its 76:1 JPEG copy 2.8 px).
      // Blur after acquisition is found by the grain of the counts noise (nm-smoothed).
      [6, 9],
    ),
    d(
      'nm-recon-blur',
      'recon_edge_width',
      'high',
      ['blur', 'motion'],
      'Blurred reconstruction',
      'Check for patient motion and the reconstruction: the post-filter width, the number of iterations and the resolution modelling.',
      // PET and SPECT reconstructions keep hot lesions' edges within a pixel or two; 6 px is the planar limit.
      [1.8, 6],
    ),
    d(
      'nm-smoothed',
      'noise_grain',
      'high',
      ['blur'],
      'Smoothed image (counts noise blurred with it)',
      'Check the processing after acquisition (a smoothing filter, resampling, heavy lossy compression) and, for a reconstruction, the width of its post-filter.',
    ),
    d(
      'nm-clipping',
      'clipped',
      'high',
      ['clipping'],
      'Clipped hot spots',
      'Export without a maximum cut-off (or with a wider scale).',
      [0.01, 0.2],
    ),
  ],
  SM: [
    d(
      'sm-focus',
      'focus_blur',
      'high',
      ['blur'],
      'Out of focus (on tissue)',
      'Rescan with autofocus on more focus points, or mark the tissue for the focus map.',
    ),
    d(
      'sm-blank',
      'tissue_coverage',
      'low',
      ['blank-slide'],
      'Little or no tissue',
      'Check the scan area covers the section and that the right slide was scanned.',
      [0.02, 0.15],
    ),
    d(
      'sm-pen',
      'pen_marks',
      'high',
      ['pen-marks'],
      'Pen marks on the slide',
      'Clean ink off the coverslip or exclude the marked area from the scan region.',
      [0.005, 0.05],
    ),
    d(
      'sm-cast',
      'colour_cast',
      'high',
      ['colour-cast'],
      'Colour cast (the empty glass is not neutral white)',
      'Recalibrate the scanner’s white balance (flat-field) before scanning.',
      [0.03, 0.12],
    ),
    d(
      'sm-stain',
      'stain_hue_offset',
      'high',
      ['colour-cast'],
      'Unexpected stain colour (not the pink/purple of H&E)',
      'Check the staining run and the scanner’s colour calibration.',
      [15, 90],
    ),
    d(
      'sm-dark',
      'brightness',
      'low',
      ['under-exposure'],
      'Too dark',
      'Raise the illumination or exposure time of the scanner.',
      [0.2, 0.45],
    ),
    d(
      'sm-bright',
      'brightness',
      'high',
      ['over-exposure'],
      'Washed out (too bright)',
      'Lower the illumination or exposure time; check the stain was not too weak.',
      [0.8, 0.95],
    ),
    d(
      'sm-contrast',
      'contrast',
      'low',
      ['low-contrast'],
      'Low contrast in the tissue',
      'Check the staining intensity and the scanner’s gamma setting.',
    ),
  ],
};

/** A measurement as written: '12.3 HU', '4.5%'. */
export function formatMeasure(key: string, value: number): string {
  const l: MeasureLabel = MEASURE_LABELS[key] ?? { label: key, unit: '', digits: 2, csv: '' };
  return `${(l.percent ? value * 100 : value).toFixed(l.digits)}${l.unit}`;
}

/** A detector's fitted limits, on the oriented scale (the measure, negated for 'low' detectors). */
export interface DetectorLimits {
  /** From here on the image is flagged for review. */
  review: number;
  /** From here on it fails. */
  fail: number;
  /** The median of clean images: the score is the distance past `review` in units of `review - center`. */
  center: number;
}

/**
 * One step of a confidence table: from margin `from` on (the distance of the worst detector score from 0, on
 * the verdict's side), the verdict is right with probability `p`; `right` of `n` training verdicts were.
 */
export interface ConfidenceStep {
  from: number;
  p: number;
  right: number;
  n: number;
}

/** The fitted model: limits per detector and the calibration of confidence, per family. */
export interface QcModel {
  version: string;
  /** How the parameters were made (script, seed, corpus size). */
  provenance: string;
  families: Record<
    ModalityFamily,
    {
      limits: Record<string, DetectorLimits>;
      /** The confidence of each side of the verdict against its margin, fitted on the training split. */
      confidence: { pass: ConfidenceStep[]; flagged: ConfidenceStep[] };
    }
  >;
}
