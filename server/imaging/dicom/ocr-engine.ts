// OCR in process: tesseract.js (Tesseract compiled to WebAssembly) on its own worker thread, with the English
// model of @tesseract.js-data/eng read from disk. Nothing is downloaded and no system binary is needed, so a
// production install reads burned-in text wherever it runs. One engine per thread that asks for it, reused,
// and its jobs run one at a time: the machine's cores are shared with every other upload.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';

/** Words read with less confidence than this, or with fewer than two letters or digits, are noise. */
const MIN_CONFIDENCE = 60;

/** Longest one image may take; a stuck engine is ended and the next image starts a new one. */
const RECOGNIZE_TIMEOUT_MS = 60_000;

/** An engine left unused this long is ended: it holds its model and WebAssembly memory (about 90 MB) meanwhile. */
const IDLE_MS = 120_000;

/** A word the OCR engine read, and where (in pixels of the image read). */
export interface Word {
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}

/** The OCR engine could not start or could not read an image; the message says which, without paths. */
export class OcrUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcrUnavailableError';
  }
}

let engine: Promise<Worker> | undefined;
/** The last job handed to the engine: the next one waits for it. */
let queue: Promise<unknown> = Promise.resolve();
let idleTimer: NodeJS.Timeout | undefined;

/**
 * Where the English model (eng.traineddata.gz) lies: OCR_MODEL_DIR when set (a model of an operator's choosing),
 * else the data package's LSTM-only model, the one tesseract.js would otherwise fetch.
 */
function englishModelDir(): string {
  if (process.env.OCR_MODEL_DIR) return path.resolve(process.env.OCR_MODEL_DIR);
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/** Longest the engine may take to start (about two seconds here); past it the start counts as failed. */
const START_TIMEOUT_MS = 60_000;

async function startEngine(): Promise<Worker> {
  // Loaded here, not at import: a thread that never reads text never pays for the engine.
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  const langPath = englishModelDir();
  // tesseract.js never settles createWorker when the model cannot be loaded: a missing model is told here.
  await access(path.join(langPath, 'eng.traineddata.gz'), constants.R_OK);
  let failed: (reason: unknown) => void = () => {};
  const startFailed = new Promise<never>((_, reject) => (failed = reject));
  const timer = setTimeout(() => failed(new Error('the engine did not start in time')), START_TIMEOUT_MS);
  try {
    const worker = await Promise.race([
      createWorker('eng', OEM.LSTM_ONLY, {
        langPath,
        cachePath: langPath,
        // 'none': the model is read from the package and never written back (the default writes it to the cwd).
        cacheMethod: 'none',
        gzip: true,
        // Without a handler tesseract.js throws failures again; a job's own failure reaches its caller anyway.
        errorHandler: (error: unknown) => failed(new Error(String(error))),
      }),
      startFailed,
    ]);
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.SPARSE_TEXT,
      // The engine's notes ("Estimating resolution as …") would go to the server's stdout, between its log lines.
      debug_file: '/dev/null',
    });
    return worker;
  } finally {
    clearTimeout(timer);
    // Later failures belong to jobs, which reject on their own.
    startFailed.catch(() => {});
  }
}

/** The engine of this thread, started on first use; a failed start is tried again by the next caller. */
function currentEngine(): Promise<Worker> {
  engine ??= startEngine().catch((error: unknown) => {
    engine = undefined;
    throw new OcrUnavailableError('the OCR engine could not start', { cause: error });
  });
  return engine;
}

/** Ends this thread's engine (after the job it is running, if any); the next read starts a new one. */
export async function closeOcr(): Promise<void> {
  const running = engine;
  engine = undefined;
  if (!running) return;
  await queue.catch(() => {});
  await (await running.catch(() => undefined))?.terminate();
}

/** `image` read by the engine, as Tesseract's TSV, within the time limit (the engine is ended past it). */
async function recognizeTsv(image: Buffer): Promise<string> {
  const worker = await currentEngine();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OcrUnavailableError('the OCR engine took too long')), RECOGNIZE_TIMEOUT_MS);
  });
  try {
    const { data } = await Promise.race([worker.recognize(image, {}, { tsv: true, text: false }), timeout]);
    return data.tsv ?? '';
  } catch (error) {
    if (error instanceof OcrUnavailableError) {
      if (engine) void closeOcr();
      throw error;
    }
    throw new OcrUnavailableError('the OCR engine could not read the image', { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** Words of level 5 in Tesseract's TSV, confident enough and with at least two letters or digits. */
export function wordsOfTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells[0] !== '5') continue;
    const [left, top, width, height, confidence] = cells.slice(6, 11).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const text = (cells[11] ?? '').trim();
    if (!(confidence >= MIN_CONFIDENCE) || (text.match(/[A-Za-z0-9]/g) ?? []).length < 2) continue;
    words.push({ x: left, y: top, width, height, text });
  }
  return words;
}

/**
 * Words the OCR engine reads in an 8-bit grey image, with their boxes. Throws OcrUnavailableError when the engine
 * cannot start or fails on the image: the caller must then treat the image as unchecked, never as clean.
 */
export function readWords(grey: Uint8Array, width: number, height: number): Promise<Word[]> {
  // PGM: the plainest format the engine's image library reads, so nothing has to be encoded.
  const image = Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), grey]);
  clearTimeout(idleTimer);
  const job = queue.then(() => recognizeTsv(image)).then(wordsOfTsv);
  queue = job.catch(() => {});
  const last = queue;
  void last.then(() => {
    if (queue !== last) return;
    // Unref'd: an idle engine's timer keeps neither the thread nor the process alive.
    idleTimer = setTimeout(() => void closeOcr(), IDLE_MS).unref();
  });
  return job;
}
