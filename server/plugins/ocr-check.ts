import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { closeOcr } from '../imaging/dicom/ocr-engine.ts';
import { probeOcr } from '../imaging/dicom/ocr-probe.ts';

/**
 * Checks, once the server listens, that burned-in text can be read (see ocr-probe.ts) and says so in one log line.
 * A server whose OCR cannot run still serves: files that may carry burned-in text are then stored as not
 * de-identified, each report saying why (see burned-in-text.ts).
 */
async function ocrCheck(app: FastifyInstance): Promise<void> {
  let probe: Promise<void> | undefined;
  app.addHook('onListen', async () => {
    // Not awaited: the engine takes seconds to start, and no request needs to wait for it.
    probe = probeOcr()
      .then((problem) => {
        if (problem === undefined) app.log.info('OCR ready: burned-in text is read in process (tesseract.js, English)');
        else
          app.log.error(
            `Burned-in text cannot be checked (${problem}): ultrasound, screen captures and files marked with burned-in text will be stored as not de-identified`,
          );
      })
      // The probe's engine is this thread's; uploads read text on the imaging pool's threads.
      .finally(() => closeOcr());
  });
  app.addHook('onClose', async () => {
    await probe;
    await closeOcr();
  });
}

export default fp(ocrCheck, { name: 'ocr-check' });
