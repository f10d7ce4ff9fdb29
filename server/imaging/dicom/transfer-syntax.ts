/** How the pixel data of one DICOM transfer syntax is stored. */
export interface TransferSyntax {
  uid: string;
  name: string;
  /** Which decoder turns one frame into samples; 'native' means the bytes are the samples. */
  codec: 'native' | 'rle' | 'jpeg-baseline' | 'jpeg-lossless' | 'jpeg-ls' | 'jpeg-2000' | 'unsupported';
  bigEndian: boolean;
}

const known: Record<string, Omit<TransferSyntax, 'uid'>> = {
  '1.2.840.10008.1.2': { name: 'Implicit VR Little Endian', codec: 'native', bigEndian: false },
  '1.2.840.10008.1.2.1': { name: 'Explicit VR Little Endian', codec: 'native', bigEndian: false },
  '1.2.840.10008.1.2.1.99': { name: 'Deflated Explicit VR Little Endian', codec: 'native', bigEndian: false },
  '1.2.840.10008.1.2.2': { name: 'Explicit VR Big Endian', codec: 'native', bigEndian: true },
  '1.2.840.10008.1.2.5': { name: 'RLE Lossless', codec: 'rle', bigEndian: false },
  '1.2.840.10008.1.2.4.50': { name: 'JPEG Baseline (Process 1)', codec: 'jpeg-baseline', bigEndian: false },
  // libjpeg-turbo decodes its 8-bit streams, jpeg12.ts its 12-bit ones (see dicom-pixels.ts).
  '1.2.840.10008.1.2.4.51': { name: 'JPEG Extended (Process 2 & 4)', codec: 'jpeg-baseline', bigEndian: false },
  '1.2.840.10008.1.2.4.57': {
    name: 'JPEG Lossless, Non-Hierarchical (Process 14)',
    codec: 'jpeg-lossless',
    bigEndian: false,
  },
  '1.2.840.10008.1.2.4.70': { name: 'JPEG Lossless, First-Order Prediction', codec: 'jpeg-lossless', bigEndian: false },
  '1.2.840.10008.1.2.4.80': { name: 'JPEG-LS Lossless', codec: 'jpeg-ls', bigEndian: false },
  '1.2.840.10008.1.2.4.81': { name: 'JPEG-LS Near-Lossless', codec: 'jpeg-ls', bigEndian: false },
  '1.2.840.10008.1.2.4.90': { name: 'JPEG 2000 Lossless', codec: 'jpeg-2000', bigEndian: false },
  '1.2.840.10008.1.2.4.91': { name: 'JPEG 2000', codec: 'jpeg-2000', bigEndian: false },
  '1.2.840.10008.1.2.4.201': { name: 'High-Throughput JPEG 2000 Lossless', codec: 'jpeg-2000', bigEndian: false },
  '1.2.840.10008.1.2.4.202': {
    name: 'High-Throughput JPEG 2000 (RPCL) Lossless',
    codec: 'jpeg-2000',
    bigEndian: false,
  },
  '1.2.840.10008.1.2.4.203': { name: 'High-Throughput JPEG 2000', codec: 'jpeg-2000', bigEndian: false },
  '1.2.840.10008.1.2.4.100': { name: 'MPEG2 Main Profile', codec: 'unsupported', bigEndian: false },
  '1.2.840.10008.1.2.4.102': { name: 'MPEG-4 AVC/H.264', codec: 'unsupported', bigEndian: false },
};

/**
 * What a transfer syntax UID means; unknown UIDs are reported as unsupported with the UID as their name.
 * @example transferSyntax('1.2.840.10008.1.2.5').codec // 'rle'
 */
export function transferSyntax(uid: string): TransferSyntax {
  const entry = known[uid];
  return entry ? { uid, ...entry } : { uid, name: `transfer syntax ${uid}`, codec: 'unsupported', bigEndian: false };
}
