// Setting Burned In Annotation to NO in files that lack it: inserted in tag order, explicit and implicit VR,
// read back by pydicom and dciodvfy with every other attribute and sample as it was.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withBurnedInAnnotationNo } from '../../server/imaging/dicom/pixel-rewrite.ts';
import { dciodvfyErrors, readWithPydicom } from '../fixtures/pydicom-pixels.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

const script = `import sys, pydicom
a, b = pydicom.dcmread(sys.argv[1]), pydicom.dcmread(sys.argv[2])
print(a.get("BurnedInAnnotation", ""), b.get("BurnedInAnnotation", ""))
print(sorted(e.keyword for e in a if e.tag != 0x00280301) == sorted(e.keyword for e in b if e.tag != 0x00280301))`;

describe('withBurnedInAnnotationNo', () => {
  for (const source of ['CT_small.dcm', 'MR_small_implicit.dcm']) {
    it(`${source}: the attribute is added as NO, nothing else changes`, () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-bia-'));
      const input = path.join(PYDICOM, source);
      const output = path.join(dir, source);
      writeFileSync(output, withBurnedInAnnotationNo(new Uint8Array(readFileSync(input))));
      const run = spawnSync('/usr/bin/python3', ['-c', script, input, output], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trimEnd().split('\n')).toEqual([' NO', 'True']);
      const errors = dciodvfyErrors(input);
      expect([...dciodvfyErrors(output)].filter((e) => !errors.has(e))).toEqual([]);
      expect(readWithPydicom(output).pixels).toEqual(readWithPydicom(input).pixels);
    });
  }
});
