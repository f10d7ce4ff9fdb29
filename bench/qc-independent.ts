// bench/qc-independent: the built-in engine on degradations it was not fitted on. make_cases.py (numpy and
// scipy, from Debian's python3-scipy) applies artefacts written from their physical description, with its own
// strengths, to Debian's real example images (and, when python3-skimage is installed, scikit-image's stained
// immunohistochemistry section) and saves each as DICOM, NIfTI or PNG; each file is then decoded and
// checked as an upload is. The engine's own corpus generator (bench/qc-corpus) plays no part, so this is the
// nearest thing here to an outside benchmark. Prints the same table as qc-accuracy. BENCH_SEED picks the noise.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decodeImage } from '../server/imaging/decode-image.ts';
import type { ModalityFamily } from '../server/imaging/metrics/modality.ts';
import { report, run } from './qc-corpus/evaluate.ts';
import type { Sample } from './qc-corpus/corpus.ts';

interface Case {
  file: string;
  family: ModalityFamily;
  kind: Sample['kind'];
  strength: Sample['strength'] | null;
  source: string;
}

const dir = mkdtempSync(path.join(tmpdir(), 'qc-independent-'));
try {
  const made = spawnSync(
    '/usr/bin/python3',
    [path.join(import.meta.dirname, 'qc-independent', 'make_cases.py'), dir, process.env.BENCH_SEED ?? '7'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (made.status !== 0) {
    console.log(
      'skipped: make_cases.py needs /usr/bin/python3 with numpy, scipy, pydicom and nibabel (Debian packages)',
    );
    process.exit(0);
  }
  const cases = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Case[];
  async function* samples(): AsyncGenerator<Sample> {
    for (const c of cases) {
      const bytes = new Uint8Array(readFileSync(path.join(dir, c.file)));
      const volume = await decodeImage(bytes, path.extname(c.file));
      const name = `${c.source} ${c.kind}${c.strength ? ` ${c.strength}` : ''}`;
      yield { family: c.family, kind: c.kind, strength: c.strength ?? undefined, tier: 'real', name, volume };
    }
  }
  const outcomes = await run(samples());
  const clean = outcomes.filter((o) => o.kind === 'clean').length;
  report(`independent degradations of Debian's example images (${clean} clean, ${outcomes.length} in all)`, outcomes);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
