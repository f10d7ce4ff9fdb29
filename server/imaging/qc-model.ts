import type { QcModel } from './qc-detectors.ts';

/** The fitted limits and confidence calibration; written by bench/qc-corpus/fit.ts, not by hand. */
export const QC_MODEL: QcModel = {
  version: 'qc-model-2',
  provenance:
    'bench/qc-corpus/fit.ts on the training split (seed 1, 80 clean images per family and 10 per degradation and strength)',
  families: {
    CT: {
      limits: {
        'ct-noise': {
          review: 44.223,
          fail: 54.89,
          center: 12.355,
        },
        'ct-blur': {
          review: 2.1,
          fail: 2.1704,
          center: 0.64824,
        },
        'ct-streaks': {
          review: 26.372,
          fail: 35.443,
          center: 9.1418,
        },
        'ct-metal-streaks': {
          review: 30.917,
          fail: 59.297,
          center: 0,
        },
        'ct-rings': {
          review: 5.8551,
          fail: 8.4379,
          center: 0,
        },
        'ct-clipping': {
          review: 0.016602,
          fail: 0.025623,
          center: 0,
        },
        'ct-calibration': {
          review: 60,
          fail: 60,
          center: 0,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.98765,
            right: 79,
            n: 79,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.9759,
            right: 80,
            n: 81,
          },
        ],
      },
    },
    MR: {
      limits: {
        'mr-snr': {
          review: -9.056,
          fail: -8.8586,
          center: -43.618,
        },
        'mr-cjv': {
          review: 0.85,
          fail: 0.85,
          center: 0.41881,
        },
        'mr-blur': {
          review: 1.6358,
          fail: 2.0718,
          center: 0.70273,
        },
        'mr-contrast': {
          review: -1.1606,
          fail: -0.80255,
          center: -1.6104,
        },
        'mr-tissue-contrast': {
          review: -0.18,
          fail: -0.18,
          center: -0.35148,
        },
        'mr-flat-tissue': {
          review: -0.35,
          fail: -0.35,
          center: -0.82164,
        },
        'mr-ghosting': {
          review: 0.064341,
          fail: 0.098014,
          center: -0.000040035,
        },
        'mr-motion': {
          review: 0.06,
          fail: 0.06,
          center: -0.00066098,
        },
        'mr-ghost-band': {
          review: 0.035,
          fail: 0.10189,
          center: 0.00011033,
        },
        'mr-wrap': {
          review: 0.24953,
          fail: 0.43288,
          center: 0,
        },
        'mr-clipping': {
          review: 0.10373,
          fail: 0.19881,
          center: 0,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.9759,
            right: 80,
            n: 81,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.98592,
            right: 69,
            n: 69,
          },
        ],
      },
    },
    XR: {
      limits: {
        'xr-under': {
          review: -0.21019,
          fail: -0.15279,
          center: -0.45608,
        },
        'xr-over': {
          review: 0.56801,
          fail: 0.56801,
          center: 0.45608,
        },
        'xr-saturation': {
          review: 0.022594,
          fail: 0.10796,
          center: 0,
        },
        'xr-range': {
          review: -0.34849,
          fail: -0.24235,
          center: -0.90639,
        },
        'xr-noise': {
          review: 0.090038,
          fail: 0.12603,
          center: 0.012074,
        },
        'xr-blur': {
          review: 2.0654,
          fail: 2.6393,
          center: 1.125,
        },
        'xr-fluoro-blur': {
          review: 3.75,
          fail: 3.75,
          center: 1.125,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.9759,
            right: 80,
            n: 81,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.98592,
            right: 69,
            n: 69,
          },
        ],
      },
    },
    US: {
      limits: {
        'us-gain-low': {
          review: -0.12453,
          fail: -0.090019,
          center: -0.29067,
        },
        'us-gain-high': {
          review: 0.48574,
          fail: 0.5601,
          center: 0.29067,
        },
        'us-depth': {
          review: -0.66088,
          fail: -0.53315,
          center: -0.92212,
        },
        'us-speckle': {
          review: 2.1231,
          fail: 2.2037,
          center: 1.902,
        },
        'us-blur': {
          review: 0.3167,
          fail: 0.39852,
          center: 0.15768,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.9878,
            right: 80,
            n: 80,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.98077,
            right: 50,
            n: 50,
          },
        ],
      },
    },
    NM: {
      limits: {
        'nm-noise': {
          review: 0.25,
          fail: 0.25,
          center: 0.016843,
        },
        'nm-recon-noise': {
          review: 0.13011,
          fail: 0.20887,
          center: 0.016843,
        },
        'nm-blur': {
          review: 6,
          fail: 6,
          center: 1.2706,
        },
        'nm-recon-blur': {
          review: 2.1914,
          fail: 2.4427,
          center: 1.2706,
        },
        'nm-smoothed': {
          review: 3.0388,
          fail: 3.8891,
          center: 1.1523,
        },
        'nm-clipping': {
          review: 0.13583,
          fail: 0.20844,
          center: 0,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.9878,
            right: 80,
            n: 80,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.96875,
            right: 30,
            n: 30,
          },
        ],
      },
    },
    SM: {
      limits: {
        'sm-focus': {
          review: 0.42959,
          fail: 0.43712,
          center: 0.23247,
        },
        'sm-blank': {
          review: -0.13729,
          fail: -0.075002,
          center: -0.48617,
        },
        'sm-pen': {
          review: 0.028576,
          fail: 0.046989,
          center: 0,
        },
        'sm-cast': {
          review: 0.054848,
          fail: 0.073169,
          center: 0.01037,
        },
        'sm-stain': {
          review: 15,
          fail: 15,
          center: 0,
        },
        'sm-dark': {
          review: -0.45,
          fail: -0.44362,
          center: -0.65341,
        },
        'sm-bright': {
          review: 0.8,
          fail: 0.83096,
          center: 0.65341,
        },
        'sm-contrast': {
          review: -0.044797,
          fail: -0.026816,
          center: -0.095832,
        },
      },
      confidence: {
        pass: [
          {
            from: 0,
            p: 0.9878,
            right: 80,
            n: 80,
          },
        ],
        flagged: [
          {
            from: 0,
            p: 0.98611,
            right: 70,
            n: 70,
          },
        ],
      },
    },
  },
};
