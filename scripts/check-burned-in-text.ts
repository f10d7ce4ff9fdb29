// A production install reads burned-in text: an ultrasound frame with a word drawn into it (by code, see
// ocr-probe.ts) is de-identified as an upload is, and the word must be found, blanked and unreadable after.
// scripts/check-production-install.sh runs it with no `tesseract` on PATH and, where it can, with no network.
// Usage: node scripts/check-burned-in-text.ts
import { parseDicom, stringValue } from '../server/imaging/dicom/dicom-dataset.ts';
import { deidentifyDicomWithReport } from '../server/imaging/dicom/deidentify.ts';
import { closeOcr, readWords } from '../server/imaging/dicom/ocr-engine.ts';
import { PROBE_WORD, probeImage } from '../server/imaging/dicom/ocr-probe.ts';
import { makeDicomImage } from '../tests/fixtures/dicom-fixtures.ts';

const WIDTH = 320;
const HEIGHT = 160;

/** A dim disc (the anatomy) with the probe word burned into the top left corner. */
function ultrasoundFrame(): Uint8Array {
  const frame = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++) if ((x - 220) ** 2 + (y - 100) ** 2 < 40 ** 2) frame[y * WIDTH + x] = 112;
  const word = probeImage();
  for (let y = 0; y < word.height; y++) frame.set(word.grey.subarray(y * word.width, (y + 1) * word.width), y * WIDTH);
  return frame;
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

const file = await makeDicomImage({
  width: WIDTH,
  height: HEIGHT,
  bitsAllocated: 8,
  samples: ultrasoundFrame(),
  modality: 'US',
});
const { parts, report } = await deidentifyDicomWithReport(file, 'production-install-check');
if (report.burnedInText !== 'blanked')
  fail(`burned-in text was ${report.burnedInText}${report.burnedInReason ? ` (${report.burnedInReason})` : ''}`);
const stored = parseDicom(Buffer.concat(parts));
const pixelData = stored.elements.x7fe00010!;
const out = stored.byteArray.subarray(pixelData.dataOffset, pixelData.dataOffset + pixelData.length);
const left = (await readWords(out, WIDTH, HEIGHT)).map((word) => word.text).join(' ');
await closeOcr();
if (left !== '') fail(`text still readable after blanking: "${left}"`);
if (out[100 * WIDTH + 220] !== 112) fail('the image itself was blanked too');
console.log(
  `Burned-in "${PROBE_WORD}" found in ${report.burnedInRegions.length} region(s) and blanked; Burned In Annotation ${stringValue(stored, 'x00280301') ?? 'absent'}`,
);
