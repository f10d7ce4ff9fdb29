// Clean images of every modality family, with realistic variation (anatomy, size, bit depth, noise level,
// contrast, vendor-like rescale), drawn from a seeded generator so the corpus is the same on every run.
import type { ModalityFamily } from '../../server/imaging/metrics/modality.ts';
import { integerRange, type ImageVolume } from '../../server/imaging/volume.ts';
import { gaussianBlur, inEllipse, quantise, smoothField, type Rng } from './image-ops.ts';

/** What a split's generator draws from: the held-out split uses other sizes and ranges than the training one. */
export interface GeneratorSettings {
  sizes: number[];
  /** Multiplier range of each modality's nominal noise. */
  noise: [number, number];
  /** Multiplier range of tissue contrast. */
  contrast: [number, number];
  /** Sigma range (pixels) of the system blur. */
  sharpness: [number, number];
}

/** The settings of the training split. */
export const TRAIN_SETTINGS: GeneratorSettings = {
  sizes: [192, 256, 320, 384],
  noise: [0.6, 1.4],
  contrast: [0.8, 1.2],
  sharpness: [0.5, 0.9],
};
/** The held-out split: other sizes, a wider noise range and other contrasts. */
export const HELD_OUT_SETTINGS: GeneratorSettings = {
  sizes: [160, 224, 288, 352, 448],
  noise: [0.5, 1.6],
  contrast: [0.7, 1.3],
  sharpness: [0.4, 1.0],
};

function volume(
  family: ModalityFamily,
  data: Float32Array,
  width: number,
  height: number,
  extra: Partial<ImageVolume> & { storedRange: [number, number]; bitDepth: number },
): ImageVolume {
  const modality = { CT: 'CT', MR: 'MR', XR: 'DX', US: 'US', NM: 'PT', SM: 'SM' }[family];
  return {
    format: 'dcm',
    width,
    height,
    depth: 1,
    channels: family === 'SM' ? 3 : 1,
    data,
    spacing: [1, 1, 1],
    photometric: family === 'SM' ? 'RGB' : 'MONOCHROME2',
    invert: false,
    modality,
    ...extra,
  };
}

/** An axial CT slice in HU: body with fat, organs, optional lungs and spine, table, FOV padding. */
export function cleanCt(r: Rng, s: GeneratorSettings): ImageVolume {
  const size = r.choose(s.sizes);
  const [w, h] = [size, size];
  const cx = w / 2 + r.between(-0.04, 0.04) * w,
    cy = h / 2 + r.between(-0.04, 0.04) * h;
  const head = r.next() < 0.3;
  const a = w * (head ? r.between(0.25, 0.33) : r.between(0.33, 0.44)),
    b = head ? a * r.between(1.1, 1.25) : a * r.between(0.6, 0.8);
  const fatT = head ? 0.04 : r.between(0.05, 0.14);
  const c = r.between(...s.contrast);
  const field = smoothField(w, h, size / 8, r);
  const organs = Array.from({ length: r.choose([2, 3, 4, 5]) }, () => ({
    x: cx + r.between(-0.5, 0.5) * a,
    y: cy + r.between(-0.4, 0.4) * b,
    a: r.between(0.1, 0.25) * a,
    b: r.between(0.1, 0.25) * b,
    hu: r.choose([30, 45, 55, 65, 120, 160]),
  }));
  const lungs = !head && r.next() < 0.5;
  const padding = r.choose([-1000, -1024, -2000, -3024]);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = -1000;
      const inFov = Math.hypot(x - w / 2, y - h / 2) < w * 0.5;
      if (!inFov) v = padding;
      else if (inEllipse(x, y, cx, cy, a, b)) {
        if (head) {
          v = inEllipse(x, y, cx, cy, a * (1 - fatT), b * (1 - fatT)) ? 35 + 6 * c * field[y * w + x]! : 1000;
          if (inEllipse(x, y, cx, cy, a * (1 - fatT * 2.2), b * (1 - fatT * 2.2))) v = 35 + 8 * c * field[y * w + x]!;
        } else {
          v = inEllipse(x, y, cx, cy, a * (1 - fatT), b * (1 - fatT)) ? 40 + 12 * c * field[y * w + x]! : -100;
          for (const o of organs) if (inEllipse(x, y, o.x, o.y, o.a, o.b)) v = o.hu * c + 8 * field[y * w + x]!;
          if (
            lungs &&
            (inEllipse(x, y, cx - a * 0.45, cy - b * 0.1, a * 0.3, b * 0.55) ||
              inEllipse(x, y, cx + a * 0.45, cy - b * 0.1, a * 0.3, b * 0.55))
          )
            v = -850 + 40 * field[y * w + x]!;
          if (inEllipse(x, y, cx, cy + b * 0.62, a * 0.09, b * 0.16)) v = 700;
          if (
            inEllipse(x, y, cx, cy + b * 0.62, a * 0.11, b * 0.19) &&
            !inEllipse(x, y, cx, cy + b * 0.62, a * 0.09, b * 0.16)
          )
            v = 1200;
        }
      } else if (!head && y > cy + b + h * 0.03 && y < cy + b + h * 0.05 && Math.abs(x - cx) < a * 1.3) v = -250;
      out[y * w + x] = v;
    }
  const blurred = gaussianBlur(out, w, h, r.between(...s.sharpness));
  // Correlated noise, as filtered back-projection gives: white noise smoothed once, rescaled to the SD.
  const sd = r.between(5, 22) * r.between(...s.noise);
  const white = Float32Array.from({ length: w * h }, () => r.normal());
  const coloured = gaussianBlur(white, w, h, 0.6);
  let var0 = 0;
  for (const v of coloured) var0 += v * v;
  const k = sd / Math.sqrt(var0 / coloured.length);
  for (let i = 0; i < out.length; i++)
    if (out[i]! > -1500) blurred[i] = blurred[i]! + k * coloured[i]!;
    else blurred[i] = padding;
  // Vendor-like storage: unsigned with intercept -1024, or signed without.
  const unsigned = r.next() < 0.5;
  const range = unsigned ? integerRange(12, false, 1, -1024) : integerRange(16, true);
  return volume('CT', quantise(blurred, range[0], range[1]), w, h, {
    storedRange: range,
    bitDepth: unsigned ? 12 : 16,
  });
}

/**
 * A brain MR slice (T1- or T2-like): scalp, skull, grey and white matter, ventricles, bias field, Rician noise.
 * Acquired as clinical MR comes: a field of view anywhere from roomy to closed in on the head, the head
 * upright or turned a quarter (the phase-encoding direction, which DICOM names, turned with it), and a quarter
 * of them with the air outside the head set to exact zeros, as some scanners and converters store it.
 */
export function cleanMr(r: Rng, s: GeneratorSettings): ImageVolume {
  const size = r.choose(s.sizes);
  const turned = r.next() < 0.5;
  const [w0, h0] = [size, Math.round(size * r.choose([1, 1, 1.125]))];
  const [w, h] = turned ? [h0, w0] : [w0, h0];
  const cx = w / 2 + r.between(-0.03, 0.03) * w,
    cy = h / 2 + r.between(-0.03, 0.03) * h;
  // The head's share of the field of view: tight fields leave only a thin rim of air.
  const fill = r.next() < 0.25 ? r.between(0.4, 0.47) : r.between(0.3, 0.37);
  const across = turned ? h : w;
  const a0 = across * fill,
    b0 = Math.min((turned ? w : h) * 0.47, a0 * r.between(1.1, 1.3));
  const [a, b] = turned ? [b0, a0] : [a0, b0];
  const t2 = r.next() < 0.4;
  const c = r.between(...s.contrast);
  const [wm, gm, csf, scalp, skull] = t2 ? [0.55, 0.55 + 0.25 * c, 1.3, 0.7, 0.05] : [1, 1 - 0.35 * c, 0.25, 0.8, 0.06];
  const gyri = smoothField(w, h, size / 14, r);
  const tex = smoothField(w, h, size / 40, r);
  const bias = smoothField(w, h, size / 1.5, r);
  const scale = r.between(200, 3000);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = 0;
      if (inEllipse(x, y, cx, cy, a, b)) {
        v = scalp;
        if (inEllipse(x, y, cx, cy, a * 0.93, b * 0.94)) v = skull;
        if (inEllipse(x, y, cx, cy, a * 0.88, b * 0.9)) {
          const depth = 1 - Math.sqrt(((x - cx) / (a * 0.88)) ** 2 + ((y - cy) / (b * 0.9)) ** 2);
          v = depth < 0.12 + 0.1 * gyri[y * w + x]! ? gm : wm;
          if (depth < 0.03) v = csf;
          if (
            inEllipse(x, y, cx - a * 0.15, cy, a * 0.08, b * 0.25, 0.2) ||
            inEllipse(x, y, cx + a * 0.15, cy, a * 0.08, b * 0.25, -0.2)
          )
            v = csf;
          v *= 1 + 0.04 * tex[y * w + x]!;
        }
        v *= 1 + 0.08 * bias[y * w + x]!;
      }
      out[y * w + x] = v * scale;
    }
  const blurred = gaussianBlur(out, w, h, r.between(...s.sharpness));
  const sigma = (scale / r.between(25, 60)) * r.between(...s.noise);
  const zeroed = r.next() < 0.25;
  for (let i = 0; i < blurred.length; i++) {
    blurred[i] = Math.hypot(blurred[i]! + sigma * r.normal(), sigma * r.normal());
    if (zeroed && !inEllipse(i % w, Math.floor(i / w), cx, cy, a * 1.04 + 2, b * 1.04 + 2)) blurred[i] = 0;
  }
  // Phase encoded along the head's shorter axis (left-right on an upright axial slice), as usual.
  const phaseEncoding = turned ? ('COL' as const) : ('ROW' as const);
  const bits = r.choose([12, 16]);
  const range = integerRange(bits, false);
  const top = Math.max(...blurred.slice(0, 1)) > 0 ? range[1] : range[1];
  const format = r.choose(['dcm', 'nii'] as const);
  return volume('MR', quantise(blurred, 0, top), w, h, {
    storedRange: range,
    bitDepth: bits,
    format,
    // NIfTI does not say which axis the phase was encoded along.
    phaseEncoding: format === 'dcm' ? phaseEncoding : undefined,
  });
}

/** A radiograph for presentation (MONOCHROME2): collimated field, body, lungs, ribs, bones, quantum noise. */
export function cleanXr(r: Rng, s: GeneratorSettings): ImageVolume {
  const w = r.choose(s.sizes),
    h = Math.round(w * r.between(1, 1.25));
  const bits = r.choose([10, 12, 14, 16]);
  const range = integerRange(bits, false);
  const top = range[1];
  const c = r.between(...s.contrast);
  const level = r.between(0.35, 0.55);
  const col = {
    x0: w * r.between(0, 0.08),
    x1: w * r.between(0.92, 1),
    y0: h * r.between(0, 0.06),
    y1: h * r.between(0.94, 1),
  };
  const shutter = r.choose([0, 0.95]);
  const field = smoothField(w, h, w / 10, r);
  const fine = smoothField(w, h, w / 60, r);
  const chest = r.next() < 0.6;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v: number;
      if (x < col.x0 || x > col.x1 || y < col.y0 || y > col.y1) v = shutter;
      else if (inEllipse(x, y, w / 2, h * 0.55, w * 0.45, h * 0.5)) {
        v = level + 0.05 * c * field[y * w + x]! + 0.02 * fine[y * w + x]!;
        if (chest) {
          const lung =
            inEllipse(x, y, w * 0.32, h * 0.45, w * 0.13, h * 0.28) ||
            inEllipse(x, y, w * 0.68, h * 0.45, w * 0.13, h * 0.28);
          if (lung) v -= 0.18 * c;
          if (lung && Math.sin((y / h) * 40 + (Math.abs(x - w / 2) / w) * 6) > 0.85) v += 0.12 * c;
          if (Math.abs(x - w / 2) < w * 0.05) v += 0.2 * c;
        } else if (inEllipse(x, y, w / 2, h * 0.55, w * 0.08, h * 0.45)) v += 0.3 * c;
      } else v = r.between(0.04, 0.06) + 0.01 * field[y * w + x]!;
      out[y * w + x] = v * top;
    }
  const blurred = gaussianBlur(out, w, h, r.between(...s.sharpness) + 0.3);
  const noise = r.between(0.004, 0.01) * r.between(...s.noise) * top;
  for (let i = 0; i < out.length; i++)
    if (out[i]! !== shutter * top)
      blurred[i] = blurred[i]! + noise * r.normal() * Math.sqrt(Math.max(0.05, blurred[i]! / top) / 0.4);
    else blurred[i] = shutter * top;
  return volume('XR', quantise(blurred, 0, top), w, h, {
    storedRange: range,
    bitDepth: bits,
    modality: r.choose(['DX', 'CR']),
  });
}

/** An 8-bit B-mode image: sector or linear field, tissue layers, cysts, reflectors, correlated speckle. */
export function cleanUs(r: Rng, s: GeneratorSettings): ImageVolume {
  const w = r.choose(s.sizes),
    h = Math.round(w * r.between(0.8, 1.05));
  const sector = r.next() < 0.65;
  const half = r.between(0.55, 0.75);
  const c = r.between(...s.contrast);
  const layers = smoothField(w, h, h / 4, r);
  const cysts = Array.from({ length: r.choose([0, 1, 2]) }, () => ({
    x: w * r.between(0.3, 0.7),
    y: h * r.between(0.3, 0.8),
    a: w * r.between(0.03, 0.08),
  }));
  // Speckle: the modulus of a smoothed complex Gaussian field (grain of about two pixels).
  const re = gaussianBlur(
    Float32Array.from({ length: w * h }, () => r.normal()),
    w,
    h,
    1,
  );
  const im = gaussianBlur(
    Float32Array.from({ length: w * h }, () => r.normal()),
    w,
    h,
    1,
  );
  let mean = 0;
  const speckle = new Float32Array(w * h);
  for (let i = 0; i < speckle.length; i++) {
    speckle[i] = Math.hypot(re[i]!, im[i]!);
    mean += speckle[i]!;
  }
  mean /= speckle.length;
  const gain = r.between(0.28, 0.42) * 255;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const inField = sector
        ? Math.hypot(x - w / 2, y + h * 0.05) < h * 0.97 && Math.abs(Math.atan2(x - w / 2, y + h * 0.05)) < half
        : x > w * 0.1 && x < w * 0.9 && y < h * 0.95;
      if (!inField) continue;
      let echo = 1 + 0.35 * c * layers[y * w + x]!;
      for (const cy of cysts) if (Math.hypot(x - cy.x, y - cy.y) < cy.a) echo = 0.05;
      echo *= 1 - 0.15 * (y / h);
      out[y * w + x] = Math.min(255, gain * echo * (speckle[y * w + x]! / mean) * r.between(...s.noise) ** 0.1);
    }
  return volume('US', quantise(out, 0, 255), w, h, { storedRange: [0, 255], bitDepth: 8 });
}

/** A PET or SPECT slice: body background uptake, hot organs and lesions, Poisson counts, reconstruction smoothing. */
export function cleanNm(r: Rng, s: GeneratorSettings): ImageVolume {
  const size = Math.max(128, Math.round(r.choose(s.sizes) / 2));
  const [w, h] = [size, size];
  const a = w * r.between(0.3, 0.42),
    b = a * r.between(0.6, 0.8);
  const hot = Array.from({ length: r.choose([1, 2, 3]) }, () => ({
    x: w / 2 + r.between(-0.5, 0.5) * a,
    y: h / 2 + r.between(-0.4, 0.4) * b,
    a: r.between(0.06, 0.2) * a,
    k: r.between(2, 8),
  }));
  const countsPerUnit = r.between(60, 250) / r.between(...s.noise) ** 2;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let act = inEllipse(x, y, w / 2, h / 2, a, b) ? 1 : 0.02;
      for (const o of hot) if (Math.hypot(x - o.x, y - o.y) < o.a) act = o.k;
      // Poisson counts by the normal approximation (means of dozens or more).
      const lambda = act * countsPerUnit;
      out[y * w + x] = Math.max(0, lambda + Math.sqrt(lambda) * r.normal());
    }
  const recon = gaussianBlur(out, w, h, r.between(1, 1.6) * (r.between(...s.sharpness) / 0.7));
  const scale = r.between(0.5, 20);
  const range = integerRange(16, true);
  // PET, or SPECT (NM), whose DICOM Image Type then says it is a tomographic reconstruction.
  const modality = r.choose(['PT', 'NM']);
  return volume(
    'NM',
    quantise(
      recon.map((v) => ((v / countsPerUnit) * 1000 * scale) / 20),
      0,
      range[1],
    ),
    w,
    h,
    {
      storedRange: range,
      bitDepth: 16,
      modality,
      imageType: modality === 'NM' ? 'ORIGINAL\\PRIMARY\\RECON TOMO\\EMISSION' : undefined,
    },
  );
}

/** An H&E slide tile: near-white glass, tissue islands with pink stroma and purple nuclei. */
export function cleanSm(r: Rng, s: GeneratorSettings): ImageVolume {
  const w = r.choose(s.sizes),
    h = r.choose(s.sizes);
  const shape = smoothField(w, h, Math.max(w, h) / 3, r);
  // Tissue covers a quarter to four fifths of the tile: a clean slide has a section on it.
  const cut = Float32Array.from(shape).sort()[Math.floor(shape.length * (1 - r.between(0.25, 0.8)))]!;
  const fibres = smoothField(w, h, 6, r);
  const c = r.between(...s.contrast);
  const eosin = [r.between(215, 240), r.between(120, 165), r.between(170, 205)];
  const haem = [r.between(70, 110), r.between(40, 75), r.between(120, 160)];
  const glass = [r.between(238, 248), r.between(238, 248), r.between(238, 248)];
  const nucleus = new Uint8Array(w * h);
  const count = Math.round(w * h * r.between(0.002, 0.006));
  for (let k = 0; k < count; k++) {
    const x0 = r.next() * w,
      y0 = r.next() * h,
      rad = r.between(1.5, 3.5);
    for (let y = Math.floor(y0 - rad); y <= y0 + rad; y++)
      for (let x = Math.floor(x0 - rad); x <= x0 + rad; x++)
        if (x >= 0 && y >= 0 && x < w && y < h && Math.hypot(x - x0, y - y0) <= rad) nucleus[y * w + x] = 1;
  }
  const planes = [0, 1, 2].map(() => new Float32Array(w * h));
  for (let i = 0; i < w * h; i++) {
    const tissue = shape[i]! > cut;
    for (let ch = 0; ch < 3; ch++) {
      const base = tissue
        ? nucleus[i]
          ? haem[ch]!
          : eosin[ch]! + 25 * c * fibres[i]! * (ch === 1 ? 1.2 : 1)
        : glass[ch]!;
      planes[ch]![i] = base;
    }
  }
  const sigma = r.between(...s.sharpness);
  const data = new Float32Array(w * h * 3);
  const blurred = planes.map((p) => gaussianBlur(p, w, h, sigma));
  const noise = r.between(1.5, 3.5) * r.between(...s.noise);
  for (let i = 0; i < w * h; i++)
    for (let ch = 0; ch < 3; ch++)
      data[i * 3 + ch] = Math.min(255, Math.max(0, Math.round(blurred[ch]![i]! + noise * r.normal())));
  return volume('SM', data, w, h, {
    storedRange: [0, 255],
    bitDepth: 8,
    format: r.choose(['png', 'tiff', 'dcm'] as const),
    modality: undefined,
  });
}

/** The clean generator of each family. */
export const GENERATORS: Record<ModalityFamily, (r: Rng, s: GeneratorSettings) => ImageVolume> = {
  CT: cleanCt,
  MR: cleanMr,
  XR: cleanXr,
  US: cleanUs,
  NM: cleanNm,
  SM: cleanSm,
};
