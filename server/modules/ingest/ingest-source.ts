import { Readable } from 'node:stream';

/** One file coming in through any door: the name its sender gave it and its bytes as they arrive. */
export interface IncomingFile {
  /** The sender's file name (a multipart part's filename, a STOW-RS part's, a C-STORE instance's); display only. */
  name: string;
  stream: Readable;
}

/** What a door hands to ingest(): one file, or the files of a DICOM series (slices or .zip archives of them). */
export interface IngestSource {
  kind: 'file' | 'series';
  /** The files as they arrive; for `file`, a second one is refused. */
  files: AsyncIterable<IncomingFile>;
  /** What the sender says it will send, envelope included (Content-Length), when it says; checked before reading. */
  declaredBytes?: number;
}

/** Who brings the files in, and where to. */
export interface IngestOptions {
  workspaceId: string;
  userId: string;
  /** Store as sent, without de-identification; only a workspace admin may. */
  keepOriginal: boolean;
  /** The client's address, for the audit log. */
  ip?: string;
}

/**
 * A file already held in memory (a STOW-RS part, a received C-STORE instance) as an IncomingFile.
 * @example ingest({ kind: 'file', files: [fileFromBytes('CT1.dcm', bytes)] }, options)
 */
export function fileFromBytes(name: string, bytes: Uint8Array): IncomingFile {
  return { name, stream: Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]) };
}
