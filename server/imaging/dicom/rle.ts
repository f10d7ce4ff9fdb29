/**
 * Decodes one DICOM RLE Lossless frame (PS3.5 Annex G) into interleaved little-endian samples.
 * Each segment holds one byte plane (most significant first) of one sample of every pixel.
 */
export function decodeRleFrame(
  frame: Uint8Array,
  pixels: number,
  samplesPerPixel: number,
  bytesPerSample: number,
): Uint8Array {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const segments = view.getUint32(0, true);
  if (segments !== samplesPerPixel * bytesPerSample) throw new Error(`RLE frame has ${segments} segments`);
  const out = new Uint8Array(pixels * samplesPerPixel * bytesPerSample);
  for (let s = 0; s < segments; s++) {
    const start = view.getUint32(4 + s * 4, true);
    const end = s + 1 < segments ? view.getUint32(8 + s * 4, true) : frame.length;
    const sample = Math.floor(s / bytesPerSample);
    // Segment 0 of a sample is its most significant byte; samples are stored little-endian in the output.
    const byteInSample = bytesPerSample - 1 - (s % bytesPerSample);
    const stride = samplesPerPixel * bytesPerSample;
    let target = sample * bytesPerSample + byteInSample;
    let written = 0;
    let i = start;
    while (i < end && written < pixels) {
      const n = (frame[i++]! << 24) >> 24;
      if (n >= 0) {
        for (let k = 0; k <= n && written < pixels; k++, written++, target += stride) out[target] = frame[i++]!;
      } else if (n !== -128) {
        const value = frame[i++]!;
        for (let k = 0; k < 1 - n && written < pixels; k++, written++, target += stride) out[target] = value;
      }
    }
  }
  return out;
}

/** Encodes byte planes with PackBits as DICOM RLE expects; used to write test fixtures and by re-encoders. */
export function encodeRleFrame(
  samples: Uint8Array,
  pixels: number,
  samplesPerPixel: number,
  bytesPerSample: number,
): Uint8Array {
  const segments: Uint8Array[] = [];
  const stride = samplesPerPixel * bytesPerSample;
  for (let sample = 0; sample < samplesPerPixel; sample++) {
    for (let b = bytesPerSample - 1; b >= 0; b--) {
      const plane = new Uint8Array(pixels);
      for (let p = 0; p < pixels; p++) plane[p] = samples[p * stride + sample * bytesPerSample + b]!;
      segments.push(packBits(plane));
    }
  }
  const header = new Uint8Array(64);
  const view = new DataView(header.buffer);
  view.setUint32(0, segments.length, true);
  let offset = 64;
  segments.forEach((segment, s) => {
    view.setUint32(4 + s * 4, offset, true);
    offset += segment.length;
  });
  const out = new Uint8Array(offset + (offset % 2));
  out.set(header);
  let at = 64;
  for (const segment of segments) {
    out.set(segment, at);
    at += segment.length;
  }
  return out;
}

function packBits(plane: Uint8Array): Uint8Array {
  const out: number[] = [];
  let i = 0;
  while (i < plane.length) {
    let run = 1;
    while (i + run < plane.length && run < 128 && plane[i + run] === plane[i]) run++;
    if (run > 1) {
      out.push(257 - run, plane[i]!);
      i += run;
      continue;
    }
    let literal = 1;
    while (i + literal < plane.length && literal < 128 && plane[i + literal] !== plane[i + literal - 1]) literal++;
    out.push(literal - 1, ...plane.subarray(i, i + literal));
    i += literal;
  }
  if (out.length % 2) out.push(128);
  return Uint8Array.from(out);
}
