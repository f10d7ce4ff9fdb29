// The check the server runs at start: a word drawn here, in a 5×7 pixel font, must be read back by the OCR
// engine. Drawn by code rather than by a font renderer, so the check depends on nothing but the engine.
import { OcrUnavailableError, readWords } from './ocr-engine.ts';

/** The word drawn, and what must be read. */
export const PROBE_WORD = 'HELLO 42';

/** The glyphs of PROBE_WORD, one string of five columns per row, '#' for ink. */
const GLYPHS: Record<string, string[]> = {
  H: ['#...#', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  L: ['#....', '#....', '#....', '#....', '#....', '#....', '#####'],
  O: ['.###.', '#...#', '#...#', '#...#', '#...#', '#...#', '.###.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  ' ': ['.....', '.....', '.....', '.....', '.....', '.....', '.....'],
};

/** Pixels per font pixel, and the margin around the word. */
const SCALE = 4;
const MARGIN = 16;

/** PROBE_WORD as an 8-bit grey image: white text on black, as monitors burn it into ultrasound frames. */
export function probeImage(): { grey: Uint8Array; width: number; height: number } {
  const advance = 6 * SCALE;
  const width = MARGIN * 2 + PROBE_WORD.length * advance;
  const height = MARGIN * 2 + 7 * SCALE;
  const grey = new Uint8Array(width * height);
  for (const [index, char] of [...PROBE_WORD].entries()) {
    const glyph = GLYPHS[char]!;
    for (let row = 0; row < 7; row++)
      for (let column = 0; column < 5; column++) {
        if (glyph[row]![column] !== '#') continue;
        const x0 = MARGIN + index * advance + column * SCALE;
        const y0 = MARGIN + row * SCALE;
        for (let y = y0; y < y0 + SCALE; y++) grey.fill(255, y * width + x0, y * width + x0 + SCALE);
      }
  }
  return { grey, width, height };
}

/**
 * Whether OCR works here: undefined when the engine reads the probe word, else why not (one line, for the log).
 * The engine is left running for the caller to end (see closeOcr).
 */
export async function probeOcr(): Promise<string | undefined> {
  const { grey, width, height } = probeImage();
  let read: string;
  try {
    read = (await readWords(grey, width, height)).map((word) => word.text).join(' ');
  } catch (error) {
    const cause = error instanceof OcrUnavailableError ? (error.cause as Error | undefined) : undefined;
    const detail = cause?.message ?? String(cause ?? '');
    return `${(error as Error).message}${detail ? ` (${detail.split('\n')[0]})` : ''}`;
  }
  return read === PROBE_WORD ? undefined : `the OCR engine read "${read}" where "${PROBE_WORD}" is written`;
}
