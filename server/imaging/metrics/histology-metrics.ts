import type { MeasureContext, Measures } from './context.ts';
import { blurEffect, orderStatistics } from './image-stats.ts';
import { dilate } from './mask.ts';
import { scratchFloat32 } from './scratch.ts';

/** Degrees by which a hue lies outside the pink-to-purple arc of H&E (240°–380°, i.e. up to 20°). */
function outsideStainArc(hue: number): number {
  const h = hue < 60 ? hue + 360 : hue;
  return h >= 240 && h <= 380 ? 0 : Math.min(Math.abs(h - 240), Math.abs(h - 380));
}

/**
 * `x` modulo 6 for x in [5, 7], as red-dominant hues give it ((g − b) / d is within [−1, 1], since rounding
 * keeps |g − b| ≤ d): one subtraction, exact in [6, 7] (Sterbenz), where % goes through the C library's fmod.
 */
function belowSix(x: number): number {
  return x >= 6 ? x - 6 : x;
}

/**
 * Remembered hue sines and cosines of 8-bit colours (key 0xRRGGBB, -1 for none), in a table addressed by a
 * multiplicative hash of the key; a colour whose slot another holds is worked out again. Module-level so a
 * check allocates nothing; one check uses it at a time (checks run synchronously).
 */
const HUE_SLOTS_LOG2 = 15;
const hueKeys = new Int32Array(1 << HUE_SLOTS_LOG2);
const hueSines = new Float64Array(1 << HUE_SLOTS_LOG2);
const hueCosines = new Float64Array(1 << HUE_SLOTS_LOG2);

/**
 * Histology slides, in the spirit of HistoQC: a tissue mask first (darker or saturated, not pen), then
 * focus judged on tissue only, tissue coverage, pen marks (saturated blue/green or near-black strokes),
 * tissue brightness and contrast, the colour cast of the empty glass (its white point off neutral) and how
 * far the tissue's mean hue is from the pink/purple of H&E.
 */
export function histologyMeasures(c: MeasureContext): Measures {
  const { width, height } = c;
  const rgb = c.rgb!;
  const pixels = rgb.length / 3;
  const top = Number.isFinite(c.storedRange[1]) && c.storedRange[1] > 0 ? c.storedRange[1] : 255;
  const tissue = new Uint8Array(pixels);
  const grey = new Float32Array(pixels);
  let tissueN = 0,
    penN = 0,
    glassN = 0,
    lumSum = 0,
    lumSq = 0,
    sinH = 0,
    cosH = 0;
  const glass = [0, 0, 0];
  // The glass is the brightest class: within 0.08 of the 95th percentile of luminance, and not strongly coloured.
  const lums = scratchFloat32('slide-luminance', pixels);
  // A colour's hue depends on the image's white level (`top`) too: the remembered ones are forgotten.
  hueKeys.fill(-1);
  for (let p = 0; p < pixels; p++)
    lums[p] = (0.299 * rgb[p * 3]! + 0.587 * rgb[p * 3 + 1]! + 0.114 * rgb[p * 3 + 2]!) / top;
  const bright = pixels ? orderStatistics(lums, Math.floor(pixels * 0.95), false)[0] : 1;
  for (let p = 0; p < pixels; p++) {
    const r = rgb[p * 3]! / top,
      g = rgb[p * 3 + 1]! / top,
      b = rgb[p * 3 + 2]! / top;
    const lum = 0.299 * r + 0.587 * g + 0.114 * b;
    grey[p] = lum;
    // Hue in degrees (0–360) and saturation (0–1, HSV), written out here: a pair returned per pixel by a
    // helper was most of this loop's time (its allocation).
    const max = Math.max(r, g, b),
      min = Math.min(r, g, b);
    const d = max - min;
    const hue =
      d <= 0 ? 0 : (max === r ? belowSix((g - b) / d + 6) : max === g ? (b - r) / d + 2 : (r - g) / d + 4) * 60;
    const sat = d <= 0 ? 0 : max > 0 ? d / max : 0;
    const pen = (sat > 0.3 && hue >= 75 && hue <= 235 && lum < 0.85) || lum < 0.12;
    if (pen) {
      penN++;
      continue;
    }
    // Glass stays the brightest, least coloured class even under a cast; all else that is not ink is tissue.
    if (!(lum >= 0.75 && lum >= bright - 0.08 && sat < 0.4)) {
      tissue[p] = 1;
      tissueN++;
      lumSum += lum;
      lumSq += lum * lum;
      // The hue's sine and cosine, remembered per colour: a slide's tissue repeats a few thousand colours
      // over tens of thousands of pixels, and the two calls were most of this loop's time.
      const R = rgb[p * 3]!,
        G = rgb[p * 3 + 1]!,
        B = rgb[p * 3 + 2]!;
      let sine: number, cosine: number;
      if (R === (R & 255) && G === (G & 255) && B === (B & 255)) {
        const key = (R << 16) | (G << 8) | B;
        const slot = Math.imul(key, 0x9e3779b1) >>> (32 - HUE_SLOTS_LOG2);
        if (hueKeys[slot] === key) {
          sine = hueSines[slot]!;
          cosine = hueCosines[slot]!;
        } else {
          sine = Math.sin((hue * Math.PI) / 180);
          cosine = Math.cos((hue * Math.PI) / 180);
          hueKeys[slot] = key;
          hueSines[slot] = sine;
          hueCosines[slot] = cosine;
        }
      } else {
        sine = Math.sin((hue * Math.PI) / 180);
        cosine = Math.cos((hue * Math.PI) / 180);
      }
      sinH += sat * sine;
      cosH += sat * cosine;
    } else {
      glassN++;
      glass[0]! += r;
      glass[1]! += g;
      glass[2]! += b;
    }
  }
  const meanLum = tissueN ? lumSum / tissueN : 0;
  const white = glass.map((s) => (glassN ? s / glassN : 0));
  const average = (white[0]! + white[1]! + white[2]!) / 3;
  const meanHue = ((Math.atan2(sinH, cosH) * 180) / Math.PI + 360) % 360;
  // Focus, brightness and contrast are the tissue's: a slide with too little of it (blank glass) is judged on
  // its coverage alone, rather than also called out of focus, too dark and flat.
  const judged = tissueN > 64;
  return {
    tissue_coverage: tissueN / Math.max(1, pixels),
    ...(judged
      ? {
          focus_blur: blurEffect(grey, width, height, dilate(tissue, width, height, 1)),
          brightness: meanLum,
          contrast: Math.sqrt(Math.max(0, lumSq / tissueN - meanLum * meanLum)),
        }
      : {}),
    pen_marks: penN / Math.max(1, pixels),
    // The cast is read on the glass, which should be neutral; without glass to look at, none is claimed.
    colour_cast:
      glassN > pixels * 0.02 && average > 0 ? Math.max(...white.map((w) => Math.abs(w - average))) / average : 0,
    stain_hue_offset: tissueN > 64 && Math.hypot(sinH, cosH) / tissueN > 0.05 ? outsideStainArc(meanHue) : 0,
  };
}
