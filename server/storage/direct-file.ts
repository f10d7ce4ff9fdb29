import fs from 'node:fs';
import { byteLength, copyBytes, joinBytes } from './byte-runs.ts';
import { openNewFileSync, writeAllSync, writeFileDurablySync } from './durable-file.ts';

/**
 * Direct I/O (O_DIRECT) hands bytes to the disk without copying them into the page cache first. Its
 * memory, lengths and offsets must be multiples of the device's block size; 4096 suits every common disk.
 */
const BLOCK = 4096;
/** Bytes staged at a time in the aligned buffer: what direct writes cost a thread in memory, whatever the file's size. */
const STAGE_BYTES = 4 * 1024 * 1024;
const WASM_PAGE = 65_536;

const { O_WRONLY, O_CREAT, O_EXCL, O_DSYNC, O_DIRECT } = fs.constants;
const NEW_DIRECT_FILE = O_WRONLY | O_CREAT | O_EXCL | (O_DIRECT ?? 0);

let stage: Uint8Array | undefined;
/** Set once the platform or the file system refuses direct I/O; from then on files go through the page cache. */
let directRefused = O_DIRECT === undefined;

// The server's TypeScript libraries leave the WebAssembly API out; this constructor is all that is used.
declare const WebAssembly: { Memory: new (size: { initial: number }) => { buffer: ArrayBuffer } };

// WebAssembly memory starts on a page boundary, which no other JavaScript allocation promises.
const alignedStage = () =>
  (stage ??= new Uint8Array(new WebAssembly.Memory({ initial: STAGE_BYTES / WASM_PAGE }).buffer));

const refusesDirect = (error: unknown) => (error as NodeJS.ErrnoException).code === 'EINVAL';

const writeBuffered = (file: string, runs: readonly Uint8Array[]) => writeFileDurablySync(file, joinBytes(runs));

/**
 * The file system refused direct I/O for `file`, perhaps after making it: the file is written again,
 * buffered, as is every later one.
 */
function fallBackToBuffered(file: string, runs: readonly Uint8Array[]): void {
  directRefused = true;
  fs.rmSync(file, { force: true });
  writeBuffered(file, runs);
}

/**
 * Writes `runs` of bytes, end to end, to a new file and returns once they are on disk, like
 * writeFileDurablySync, but writes the whole blocks around the page cache: the kernel copying every byte
 * into its cache was the largest cost of storing a DICOM slice on the cleaning threads, and nothing
 * reads a slice back right away. The last partial block goes through the page cache in a synchronous
 * write, which also makes the file's size and blocks durable. Where direct I/O is refused (a file system
 * without it) the file is written buffered. Fails if the file exists; leaves nothing behind when a write
 * fails.
 */
export function writeNewFileDirectSync(file: string, runs: readonly Uint8Array[]): void {
  const size = byteLength(runs);
  const body = size - (size % BLOCK);
  if (directRefused || body === 0) return writeBuffered(file, runs);
  let fd: number;
  try {
    fd = openNewFileSync(file, NEW_DIRECT_FILE);
  } catch (error) {
    if (refusesDirect(error)) return fallBackToBuffered(file, runs);
    throw error;
  }
  try {
    const staged = alignedStage();
    for (let at = 0; at < body; at += STAGE_BYTES) {
      const length = Math.min(STAGE_BYTES, body - at);
      copyBytes(runs, at, staged, length);
      writeAllSync(fd, staged, length, at);
    }
    if (body === size) fs.fdatasyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    if (refusesDirect(error)) return fallBackToBuffered(file, runs);
    fs.rmSync(file, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  if (body < size) writeTail(file, runs, body, size);
}

function writeTail(file: string, runs: readonly Uint8Array[], from: number, size: number): void {
  const tail = new Uint8Array(size - from);
  copyBytes(runs, from, tail, tail.length);
  try {
    const fd = fs.openSync(file, O_WRONLY | O_DSYNC);
    try {
      writeAllSync(fd, tail, tail.length, from);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    fs.rmSync(file, { force: true });
    throw error;
  }
}
