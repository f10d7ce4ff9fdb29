import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import {
  assertDecodable,
  MAX_DECODED_VALUES,
  UndecodableImageError,
  type ImageFormat,
  type ImageVolume,
} from './volume.ts';

const sharpFormats: Record<string, ImageFormat> = {
  png: 'png',
  jpeg: 'jpg',
  tiff: 'tiff',
  gif: 'gif',
  webp: 'webp',
  bmp: 'bmp',
};

/** The raster format of the bytes by their signature, or undefined. */
export function rasterFormat(bytes: Uint8Array): ImageFormat | undefined {
  const b = bytes;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (
    (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
    (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a)
  )
    return 'tiff';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return 'gif';
  if (b[0] === 0x42 && b[1] === 0x4d && bytes.length > 26) return 'bmp';
  if (
    b[0] === 0x52 &&
    b[1] === 0x49 &&
    b[2] === 0x46 &&
    b[3] === 0x46 &&
    b[8] === 0x57 &&
    b[9] === 0x45 &&
    b[10] === 0x42 &&
    b[11] === 0x50
  )
    return 'webp';
  return undefined;
}

/**
 * Decodes PNG (8/16-bit), JPEG, TIFF (8/16-bit), GIF (first frame) and WebP through sharp (libvips).
 * The size the header declares is checked against the decode budget before any pixel is decoded (a
 * few hundred bytes can declare 16000 x 16000 pixels), and libvips is told the same limit.
 */
export async function decodeRaster(bytes: Uint8Array): Promise<ImageVolume> {
  let image: Sharp;
  let meta: Metadata;
  try {
    // The header is read without a pixel limit (libvips would refuse it with a vaguer message), the pixels with one.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_DECODED_VALUES });
  } catch {
    throw new UndecodableImageError('This image file is damaged or not in a format it claims to be.');
  }
  // Greyscale needs one value per pixel, colour three; either way a Float32Array of that many is allocated.
  const declaredChannels = (meta.channels ?? 3) <= 2 ? 1 : 3;
  assertDecodable((meta.width ?? 0) * (meta.height ?? 0) * declaredChannels);
  const format = sharpFormats[meta.format ?? ''] ?? rasterFormat(bytes);
  if (!format) throw new UndecodableImageError(`Image format ${meta.format} is not supported.`);
  const sixteen = meta.depth === 'ushort' || meta.depth === 'short';
  const grey = (meta.channels ?? 3) <= 2 || meta.space === 'b-w' || meta.space === 'grey16';
  let pipeline = image.removeAlpha();
  // Palette images are expanded to RGB by libvips; only true greyscale stays one channel.
  // libvips keeps 16 bits only when the target colourspace says so; otherwise it casts through 8-bit sRGB.
  pipeline = pipeline.toColourspace(grey ? (sixteen ? 'grey16' : 'b-w') : sixteen ? 'rgb16' : 'srgb');
  let decoded: { data: Buffer; info: OutputInfo };
  try {
    decoded = await pipeline.raw({ depth: sixteen ? 'ushort' : 'uchar' }).toBuffer({ resolveWithObject: true });
  } catch {
    throw new UndecodableImageError('This image file is damaged: its pixels could not be decoded.');
  }
  const { data, info } = decoded;
  const samples = sixteen ? new Uint16Array(data.buffer, data.byteOffset, data.byteLength / 2) : data;
  const stride = info.channels;
  // Greyscale pictures are often saved as RGB with three equal channels; they are measured as greyscale.
  const channels = info.channels >= 3 && !equalChannels(samples, stride) ? 3 : 1;
  const count = info.width * info.height * channels;
  const values = new Float32Array(count);
  for (let p = 0, o = 0; p < info.width * info.height; p++)
    for (let c = 0; c < channels; c++) values[o++] = samples[p * stride + c]!;
  const density = meta.density && meta.density > 0 ? 25.4 / meta.density : 1;
  return {
    format,
    width: info.width,
    height: info.height,
    depth: 1,
    channels,
    data: values,
    spacing: [density, density, 1],
    bitDepth: sixteen ? 16 : 8,
    storedRange: [0, sixteen ? 65535 : 255],
    photometric: channels === 3 ? 'RGB' : 'MONOCHROME2',
    invert: false,
  };
}

function equalChannels(samples: ArrayLike<number>, stride: number): boolean {
  for (let i = 0; i + 2 < samples.length; i += stride)
    if (samples[i] !== samples[i + 1] || samples[i] !== samples[i + 2]) return false;
  return true;
}
