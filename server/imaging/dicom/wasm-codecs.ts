import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The shape shared by the Cornerstone WebAssembly decoders (CharLS, OpenJPEG, libjpeg-turbo). */
interface WasmDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getDecodedBuffer(): Uint8Array;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned?: boolean };
  delete?(): void;
}

type DecoderModule = Record<string, new () => WasmDecoder>;
type Factory = () => Promise<DecoderModule>;

const modules = new Map<string, Promise<DecoderModule>>();

// Each module is instantiated once, on first use, so a server that never sees JPEG-LS never loads it.
function load(specifier: string): Promise<DecoderModule> {
  let module = modules.get(specifier);
  if (!module) {
    const factory = require(specifier) as Factory;
    module = factory();
    modules.set(specifier, module);
  }
  return module;
}

/** One decoded frame: samples as bytes (little-endian for 16-bit) and what the codec says about them. */
export interface DecodedFrame {
  bytes: Uint8Array;
  width: number;
  height: number;
  bitsPerSample: number;
  components: number;
  /** False when colour samples come back as stored (YBR stays YBR); the WebAssembly codecs give RGB. */
  colourTransformed?: boolean;
}

async function decodeWith(specifier: string, className: string, encoded: Uint8Array): Promise<DecodedFrame> {
  const module = await load(specifier);
  const Decoder = module[className];
  if (!Decoder) throw new Error(`${className} missing from ${specifier}`);
  const decoder = new Decoder();
  try {
    decoder.getEncodedBuffer(encoded.length).set(encoded);
    decoder.decode();
    const info = decoder.getFrameInfo();
    // The decoded buffer is a view into WebAssembly memory; copy it before the decoder is freed.
    const bytes = decoder.getDecodedBuffer().slice();
    return {
      bytes,
      width: info.width,
      height: info.height,
      bitsPerSample: info.bitsPerSample,
      components: info.componentCount,
    };
  } finally {
    decoder.delete?.();
  }
}

/** JPEG-LS (lossless and near-lossless) through CharLS compiled to WebAssembly. */
export const decodeJpegLs = (encoded: Uint8Array) =>
  decodeWith('@cornerstonejs/codec-charls/decodewasmjs', 'JpegLSDecoder', encoded);

/** JPEG 2000 and HTJ2K through OpenJPEG compiled to WebAssembly. */
export const decodeJpeg2000 = (encoded: Uint8Array) =>
  decodeWith('@cornerstonejs/codec-openjpeg/decodewasmjs', 'J2KDecoder', encoded);

/** 8-bit JPEG baseline through libjpeg-turbo compiled to WebAssembly. */
export const decodeJpegBaseline = (encoded: Uint8Array) =>
  decodeWith('@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs', 'JPEGDecoder', encoded);

interface LosslessDecoder {
  decode(buffer: ArrayBuffer, offset: number, length: number): Uint8Array | Uint16Array;
  xDim: number;
  yDim: number;
  precision: number;
  numComp: number;
}

/**
 * Sample precision of a JPEG Lossless stream (its SOF3 frame header), or undefined when it has none.
 * @example losslessPrecision(Uint8Array.of(0xff, 0xd8, 0xff, 0xc3, 0, 11, 8)) // 8
 */
export function losslessPrecision(encoded: Uint8Array): number | undefined {
  for (let i = 2; i + 4 < encoded.length;) {
    if (encoded[i] !== 0xff) return undefined;
    const marker = encoded[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xc3) return encoded[i + 4];
    if (marker === 0xda) return undefined;
    i += 2 + ((encoded[i + 2]! << 8) | encoded[i + 3]!);
  }
  return undefined;
}

/**
 * JPEG Lossless (processes 14 and SV1). Streams of up to 8 bits go to libjpeg-turbo compiled to WebAssembly
 * (which decodes lossless JPEG since its version 3): jpeg-lossless-decoder-js gets colour streams with
 * predictor 6 wrong (some samples wrap around), as dcmtk's colour JPEG Lossless shows. Deeper samples, which
 * the 8-bit build cannot hold, stay with jpeg-lossless-decoder-js (pure JavaScript). Either gives the
 * samples as stored, with no colour transform.
 */
export async function decodeJpegLossless(encoded: Uint8Array): Promise<DecodedFrame> {
  if ((losslessPrecision(encoded) ?? 16) <= 8) return decodeJpegBaseline(encoded);
  const { Decoder } = require('jpeg-lossless-decoder-js') as { Decoder: new () => LosslessDecoder };
  const decoder = new Decoder();
  const copy = encoded.slice();
  const samples = decoder.decode(copy.buffer, 0, copy.length);
  const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
  return {
    bytes,
    width: decoder.xDim,
    height: decoder.yDim,
    bitsPerSample: decoder.precision,
    components: decoder.numComp,
  };
}
