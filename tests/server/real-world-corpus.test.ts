/**
 * The real-world corpus: every file that ships with Debian's pydicom and nibabel test data, plus variants
 * dcmtk makes of some of them on the fly, goes through upload → metadata → preview → quality check as a
 * user would send it; the pixels the server decodes from what it stored are compared with what pydicom or
 * nibabel decode (tests/corpus/reference_arrays.py writes those arrays at test time). Nothing is
 * downloaded and nothing of theirs is kept in the repository. Every file is listed with its outcome.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../server/imaging/decode-image.ts';
import { markerOverlay } from '../../server/imaging/orientation.ts';
import { displayRange, edgeMarkers, extractSlice } from '../../server/imaging/preview-render.ts';
import type { ImageVolume } from '../../server/imaging/volume.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { multipartBody } from './uploads-fixtures.ts';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const NIBABEL = '/usr/lib/python3/dist-packages/nibabel/tests/data';
// The clinical examples Debian's GDCM library and dicom3tools ship (an XA run, an MR slice), when installed.
const GDCM_EXAMPLES = '/usr/share/doc/libgdcm3.0/examples';
const DICOM3TOOLS_EXAMPLES = '/usr/share/doc/dicom3tools/examples';
const PYTHON = '/usr/bin/python3';
const DCMTK = ['dcmcjpeg', 'dcmcrle', 'dcmcjpls'].map((tool) => `/usr/bin/${tool}`);
const missing = [PYDICOM, NIBABEL, PYTHON, ...DCMTK].filter((p) => !existsSync(p));

/** One file of the corpus: where it comes from and the name a user would upload it under. */
interface CorpusFile {
  id: string;
  label: string;
  uploadName: string;
  kind: 'dicom' | 'nifti' | 'other';
  /** Where the bytes are; for a dcmtk variant, where they will be written. */
  path: string;
  /** dcmtk variants: the tool, its options and the file it starts from. */
  variant?: { tool: string; args: string[]; source: string; lossy: boolean };
  /** Damaged copies: how the source's bytes were spoiled. Any answer but a 5xx, with a detail, is right. */
  damage?: { source: string; spoil: (bytes: Buffer) => Buffer };
}

/** What pydicom or nibabel made of a file (one line of reference_arrays.py). */
interface Reference {
  id: string;
  read: 'plain' | 'forced' | null;
  has_pixels?: boolean;
  sop_class?: string;
  decoded?: boolean;
  lossy?: boolean;
  colour?: 'ybr' | 'palette';
  shape?: number[];
  error?: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (name === '__pycache__' || name.startsWith('.')) return [];
      return statSync(full).isDirectory() ? walk(full) : [full];
    });
}

const kindOf = (file: string): CorpusFile['kind'] => {
  const name = path.basename(file);
  if (/\.nii(\.gz)?$/.test(name)) return 'nifti';
  // pydicom's folder holds DICOM files with and without an extension, plus its own notes and JSON.
  if (name.endsWith('.dcm') || (file.startsWith(PYDICOM) && !/\.(json|dump|txt|gz|py)$|^README/.test(name)))
    return 'dicom';
  return 'other';
};

/** dcmtk's encoders run on these uncompressed files; each variant is compared with its source. */
const variantSources = [
  `${PYDICOM}/CT_small.dcm`,
  `${PYDICOM}/MR_small.dcm`,
  `${PYDICOM}/MR_small_bigendian.dcm`,
  `${PYDICOM}/SC_rgb_small_odd.dcm`,
  `${PYDICOM}/SC_rgb_jpeg_dcmd.dcm`,
  `${PYDICOM}/ExplVR_BigEnd.dcm`,
  `${PYDICOM}/rtdose.dcm`,
  `${NIBABEL}/0.dcm`,
];
const variantKinds = [
  { suffix: 'jpeg-baseline', tool: 'dcmcjpeg', args: ['+eb'], lossy: true },
  { suffix: 'jpeg-extended-12bit', tool: 'dcmcjpeg', args: ['+ee'], lossy: true },
  { suffix: 'jpeg-lossless', tool: 'dcmcjpeg', args: ['+el'], lossy: false },
  { suffix: 'rle', tool: 'dcmcrle', args: [], lossy: false },
  { suffix: 'jpeg-ls', tool: 'dcmcjpls', args: [], lossy: false },
];

/** What tests/corpus/make_variants.py writes (its list and this one must agree). */
const pydicomWritten = [
  'palette-16bit-lut.dcm',
  'palette-8bit-lut.dcm',
  'palette-segmented-lut.dcm',
  'enhanced-ct-shared-rescale.dcm',
  'rgb-planar-1.dcm',
  'ybr-full-planar-1.dcm',
  'ybr-full.dcm',
];

/** Files spoiled on the fly, one per codec and container, to prove a damaged file never answers 5xx. */
const damagedSources = [
  `${PYDICOM}/CT_small.dcm`,
  `${PYDICOM}/MR_small_RLE.dcm`,
  `${PYDICOM}/MR_small_jp2klossless.dcm`,
  `${PYDICOM}/MR_small_jpeg_ls_lossless.dcm`,
  `${PYDICOM}/SC_rgb_jpeg_dcmtk.dcm`,
  `${PYDICOM}/SC_rgb_rle_2frame.dcm`,
  `${PYDICOM}/image_dfl.dcm`,
  `${PYDICOM}/rtplan.dcm`,
  `${PYDICOM}/no_meta_group_length.dcm`,
  `${NIBABEL}/anatomical.nii`,
  `${NIBABEL}/example4d.nii.gz`,
];
const damages: Record<string, (bytes: Buffer) => Buffer> = {
  'cut to half': (b) => b.subarray(0, Math.floor(b.length / 2)),
  'cut 16 bytes short': (b) => b.subarray(0, b.length - 16),
  'with its header scrambled': (b) => {
    const out = Buffer.from(b);
    for (let i = 132; i < Math.min(out.length, 400); i += 3) out[i] = out[i]! ^ 0xa5;
    return out;
  },
  'with its last half scrambled': (b) => {
    const out = Buffer.from(b);
    for (let i = Math.floor(out.length / 2); i < out.length; i += 7) out[i] = out[i]! ^ 0x5a;
    return out;
  },
};

const work = missing.length ? '' : mkdtempSync(path.join(tmpdir(), 'lumenqc-corpus-'));

function corpus(): CorpusFile[] {
  if (missing.length) return [];
  const files: CorpusFile[] = [];
  const add = (file: Omit<CorpusFile, 'id'>) => files.push({ id: String(files.length), ...file });
  for (const [root, prefix] of [
    [PYDICOM, 'pydicom'],
    [NIBABEL, 'nibabel'],
    [GDCM_EXAMPLES, 'gdcm'],
    [DICOM3TOOLS_EXAMPLES, 'dicom3tools'],
  ] as const) {
    if (!existsSync(root)) continue;
    for (const file of walk(root)) {
      const label = `${prefix}/${path.relative(root, file)}`;
      add({ label, uploadName: path.basename(file), kind: kindOf(file), path: file });
    }
  }
  for (const source of variantSources) {
    for (const v of variantKinds) {
      const stem = path.basename(source, '.dcm');
      const out = path.join(work, `${stem}-${v.suffix}.dcm`);
      add({
        label: `dcmtk ${v.tool} ${v.args.join(' ')} of ${path.basename(source)}`.replace('  ', ' '),
        uploadName: path.basename(out),
        kind: 'dicom',
        path: out,
        variant: { tool: v.tool, args: v.args, source, lossy: v.lossy },
      });
    }
  }
  // Kinds of file pydicom's folder lacks, which tests/corpus/make_variants.py writes with pydicom.
  for (const name of pydicomWritten) {
    add({ label: `written by pydicom: ${name}`, uploadName: name, kind: 'dicom', path: path.join(work, name) });
  }
  for (const source of damagedSources) {
    for (const [how, spoil] of Object.entries(damages)) {
      const name = path.basename(source);
      add({
        label: `${name} ${how}`,
        uploadName: name,
        kind: 'other',
        path: path.join(work, `damaged-${files.length}-${name}`),
        damage: { source, spoil },
      });
    }
  }
  return files;
}

const files = corpus();
const references = new Map<string, Reference>();
/** dcmtk's message for a variant it would not make (a 32-bit image in JPEG, say). */
const refusedVariants = new Map<string, string>();

/** pydicom's deliberately cut files: refusing them, with a reason, is right. */
const truncated = (file: CorpusFile) => /truncated/.test(file.label);

/** Files the product does not yet draw as the toolkits do, and why; each must still fail its check. */
// None at present: the last (pydicom's DICOMDIR-nooffset) is read since item overruns are cut as pydicom does.
const gaps: { label: RegExp; why: string }[] = [];
function knownGap(file: CorpusFile): string | undefined {
  return gaps.find((gap) => gap.label.test(file.label))?.why;
}

/** What happened to one file, for the closing table. */
interface Outcome {
  toolkit: string;
  upload?: number;
  metadata?: number;
  preview?: number;
  qc?: number;
  pixels?: string;
  detail?: string;
}
const outcomes = new Map<string, Outcome>();

let t: TestApp;
let user: TestUser;

function makeVariants() {
  const script = path.join(import.meta.dirname, '../corpus/make_variants.py');
  const written = execFileSync(PYTHON, [script, PYDICOM, work], { encoding: 'utf8' }).trim().split('\n');
  expect(written).toEqual(pydicomWritten);
  for (const file of files) {
    if (file.damage) writeFileSync(file.path, file.damage.spoil(readFileSync(file.damage.source)));
    if (!file.variant) continue;
    const { tool, args, source } = file.variant;
    const run = spawnSync(`/usr/bin/${tool}`, [...args, source, file.path], { encoding: 'utf8' });
    if (run.status !== 0 || !existsSync(file.path))
      refusedVariants.set(file.id, (run.stderr || run.stdout).trim().split('\n').pop() ?? 'failed');
  }
}

function runReferences() {
  // A lossless variant's reference is its source as pydicom decodes it: dcmtk's lossless encoders keep every
  // value. A lossy one is compared with itself as pydicom decodes it, or, where pydicom has no codec for it
  // (JPEG 12-bit), with its source (by correlation, which a linear rescaling by the encoder does not change).
  const list = files
    .filter((f) => f.kind !== 'other' && !refusedVariants.has(f.id))
    .flatMap((f) =>
      f.variant?.lossy
        ? [
            { id: f.id, kind: f.kind, path: f.path },
            { id: `${f.id}-source`, kind: f.kind, path: f.variant.source },
          ]
        : [{ id: f.id, kind: f.kind, path: f.variant?.source ?? f.path }],
    );
  readReferences(list);
  // Where pydicom has no codec (JPEG 12-bit, JPEG Lossless, JPEG-LS here), dcmtk decompresses the file and
  // pydicom decodes what dcmtk wrote: the reference is then dcmtk's decoder.
  const undecoded = files.filter((f) => !f.variant && f.kind === 'dicom' && references.get(f.id)?.decoded === false);
  const decompressed = undecoded.flatMap((f) => {
    const out = path.join(work, `dcmtk-${f.id}.dcm`);
    const done = ['dcmdjpeg', 'dcmdjpls'].some(
      (tool) => spawnSync(`/usr/bin/${tool}`, [f.path, out]).status === 0 && existsSync(out),
    );
    return done ? [{ id: `${f.id}-dcmtk`, kind: f.kind, path: out }] : [];
  });
  readReferences(decompressed);
}

function readReferences(list: { id: string; kind: string; path: string }[]) {
  if (!list.length) return;
  const script = path.join(import.meta.dirname, '../corpus/reference_arrays.py');
  const output = execFileSync(PYTHON, [script, work], { input: JSON.stringify(list), encoding: 'utf8' });
  for (const line of output.trim().split('\n')) {
    const reference = JSON.parse(line) as Reference;
    references.set(reference.id, reference);
  }
}

beforeAll(async () => {
  if (missing.length) return;
  makeVariants();
  runReferences();
  // Every file of the corpus is uploaded within minutes: the per-account upload rate is not what is tested here.
  t = await createTestApp({ UPLOAD_RATE_PER_MINUTE: '100000' });
  user = await createSignedInUser(t);
}, 120_000);

afterAll(async () => {
  if (missing.length) return;
  await t.close();
  rmSync(work, { recursive: true, force: true });
  const rows = files.map((f) => {
    const o = outcomes.get(f.id);
    const codes = o ? [o.upload, o.metadata, o.preview, o.qc].map((c) => c ?? '-').join('/') : 'not run';
    return `${f.label.padEnd(58)} ${(o?.toolkit ?? '').padEnd(26)} ${codes.padEnd(16)} ${o?.pixels ?? ''}${o?.detail ? ` — ${o.detail}` : ''}`;
  });
  console.log(
    `Real-world corpus, ${files.length} files (upload/metadata/preview/qc status, then pixels):\n${rows.join('\n')}`,
  );
});

// Each file gets its own client address: the upload and check rate limits count per address.
let address = 0;
const from = () => `10.20.${Math.floor(++address / 250)}.${address % 250}`;

async function upload(name: string, bytes: Buffer) {
  const body = multipartBody([{ field: 'file', filename: name, content: bytes }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/uploads',
    headers: { ...user.auth, ...body.headers },
    payload: body.payload,
    remoteAddress: from(),
  });
}

const get = (url: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: user.auth, remoteAddress: from() });

const check = (url: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/llm/generate-messages',
    headers: user.auth,
    remoteAddress: from(),
    payload: {
      model: 'google/medgemma-4b-it',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    },
  });

function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let sa = 0,
    sb = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!;
    sb += b[i]!;
  }
  const ma = sa / n,
    mb = sb / n;
  let ab = 0,
    aa = 0,
    bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma,
      y = b[i]! - mb;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  // Two flat images agree when they are the same flat image.
  if (aa === 0 || bb === 0) return aa === bb && Math.abs(ma - mb) < 1e-3 ? 1 : 0;
  return ab / Math.sqrt(aa * bb);
}

/** The reference as a volume laid out as the server's (x fastest; frames or slices last). */
function referenceVolume(reference: Reference): Float32Array {
  const raw = readFileSync(path.join(work, `${reference.id}.f32`));
  return new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
}

/** Compares decoded values with the reference: exact (to float precision) when lossless, correlated when lossy. */
function comparePixels(file: CorpusFile, reference: Reference, volume: ImageVolume): string {
  const expected = referenceVolume(reference);
  const actual = volume.data;
  const lossy = file.variant ? file.variant.lossy : Boolean(reference.lossy);
  if (file.kind === 'dicom' && actual.length !== expected.length)
    throw new Error(`decoded ${actual.length} values, the reference has ${expected.length}`);
  // A 4D NIfTI may be shown one volume at a time: its first volume must then match.
  if (actual.length > expected.length || expected.length % actual.length !== 0)
    throw new Error(`decoded ${actual.length} values, the reference has ${expected.length}`);
  const r = correlation(actual, expected);
  if (lossy) {
    if (!(r >= 0.99)) throw new Error(`correlation ${r.toFixed(4)} with the reference, below 0.99`);
    return `lossy, r=${r.toFixed(4)}`;
  }
  // pydicom rounds YBR→RGB conversions to integers; nothing else may move.
  const tolerance = reference.colour === 'ybr' ? 1.0001 : 0;
  let worst = 0;
  let at = -1;
  for (let i = 0; i < actual.length; i++) {
    const e = expected[i]!;
    const d = Math.abs(actual[i]! - e) - 1e-5 * Math.max(1, Math.abs(e));
    if (d > worst) {
      worst = d;
      at = i;
    }
  }
  if (worst > tolerance)
    throw new Error(`value ${at} is ${actual[at]} where the reference has ${expected[at]} (r=${r.toFixed(4)})`);
  return reference.colour === 'ybr' ? 'exact (±1 after YBR→RGB)' : 'exact';
}

/**
 * The preview drawn from the stored file agrees with the reference's middle slice, windowed as the server
 * windows it: correlated, or, where the window makes both flat, at the same grey.
 */
async function comparePreview(png: Buffer, reference: Reference, volume: ImageVolume): Promise<number | undefined> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const expectedVolume = { ...volume, data: referenceVolume(reference).slice(0, volume.data.length) };
  const slice = extractSlice(expectedVolume, 'axial', Math.floor(volume.depth / 2));
  if (info.width !== slice.width || info.height !== slice.height) return undefined;
  const [low, high] = displayRange(volume);
  // The orientation letters drawn at the edges are no part of the image: their pixels (and a halo) are left out.
  const covered = await markerPixels(volume, info.width, info.height);
  const shown: number[] = [];
  const want: number[] = [];
  for (let p = 0; p < slice.width * slice.height; p++) {
    if (covered?.[p]) continue;
    for (let c = 0; c < slice.channels; c++) {
      shown.push(data[p * info.channels + (slice.channels === 1 ? 0 : c)]!);
      const v = ((Math.min(high, Math.max(low, slice.values[p * slice.channels + c]!)) - low) / (high - low)) * 255;
      want.push(volume.invert ? 255 - v : v);
    }
  }
  const flat = (a: number[]) => a.every((v) => Math.abs(v - a[0]!) < 1);
  if (flat(shown) && flat(want)) return Math.abs(shown[0]! - want[0]!) <= 1 ? 1 : 0;
  return correlation(shown, want);
}

/** Pixels of a preview under its orientation letters, grown by two pixels for their halo; undefined without any. */
async function markerPixels(volume: ImageVolume, width: number, height: number): Promise<Uint8Array | undefined> {
  const markers = edgeMarkers(volume, 'axial');
  // The server draws letters only on previews at least 64 pixels each way (MARKED_MIN_SIZE in preview-render.ts).
  if (!markers || Math.min(width, height) < 64) return undefined;
  const svg = Buffer.from(markerOverlay(width, height, markers));
  const { data, info } = await sharp(svg).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const covered = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (data[(y * info.width + x) * info.channels + 3] === 0) continue;
      for (let dy = -2; dy <= 2; dy++)
        for (let dx = -2; dx <= 2; dx++) {
          const [u, v] = [x + dx, y + dy];
          if (u >= 0 && v >= 0 && u < width && v < height) covered[v * width + u] = 1;
        }
    }
  return covered;
}

describe('the real-world corpus (pydicom and nibabel test files, dcmtk variants)', () => {
  if (missing.length) {
    it.skip(`skipped: ${missing.join(', ')} missing — install Debian's python3-pydicom, python3-nibabel and dcmtk`, () => {});
    return;
  }

  it.each(files.map((f) => [f.label, f] as const))('%s', async (_label, file) => {
    const own = references.get(file.id);
    const source = references.get(`${file.id}-source`);
    const byDcmtk = references.get(`${file.id}-dcmtk`);
    // A lossy variant pydicom cannot decode is compared with its source, by correlation only.
    const fromSource = Boolean(file.variant?.lossy && !own?.decoded && source?.decoded);
    // A file pydicom reads but cannot decode is compared with what dcmtk decompressed from it.
    const fromDcmtk = Boolean(own?.read && own.decoded === false && byDcmtk?.decoded);
    const reference = fromSource ? source : fromDcmtk ? { ...byDcmtk!, lossy: own!.lossy } : own;
    const refused = refusedVariants.get(file.id);
    const outcome: Outcome = {
      toolkit: refused
        ? 'dcmtk refused'
        : file.damage
          ? 'damaged copy'
          : file.kind === 'other'
            ? 'not an image the product takes'
            : !reference?.read
              ? 'toolkit cannot read'
              : reference.has_pixels === false
                ? 'read, no pixels'
                : fromDcmtk
                  ? 'read; decoded by dcmtk'
                  : reference.decoded
                    ? 'read and decoded'
                    : 'read, not decoded',
    };
    outcomes.set(file.id, outcome);
    if (refused) {
      outcome.detail = refused;
      return;
    }
    const bytes = readFileSync(file.path);
    const uploaded = await upload(file.uploadName, bytes);
    outcome.upload = uploaded.statusCode;
    expect(uploaded.statusCode, uploaded.body).toBeLessThan(500);
    if (uploaded.statusCode !== 201) {
      outcome.detail = uploaded.json().detail;
      expect(outcome.detail, 'a refusal says why').toBeTruthy();
      // Everything pydicom or nibabel reads must be accepted; a truncated file may be refused, with its reason.
      if (!reference?.read || file.kind === 'other' || truncated(file)) return;
      if (!knownGap(file)) throw new Error(`refused at upload: ${outcome.detail}`);
      outcome.pixels = `known gap: ${knownGap(file)}`;
      return;
    }
    const item = uploaded.json();
    const metadata = await get(`/uploads/${item.stored_filename}/metadata`);
    outcome.metadata = metadata.statusCode;
    const preview = await get(`/uploads/${item.stored_filename}/preview.png`);
    outcome.preview = preview.statusCode;
    const qc = await check(item.url);
    outcome.qc = qc.statusCode;
    for (const res of [metadata, preview, qc]) {
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().detail, 'an error says why').toBeTruthy();
    }
    if (preview.statusCode !== 200) outcome.detail = preview.json().detail;
    if (truncated(file)) return;
    const fidelity = async () => {
      if (reference?.read && file.kind !== 'other') expect(metadata.statusCode, metadata.body).toBe(200);
      if (reference?.has_pixels === false) {
        // An object without pixels is described by its SOP class, and the preview says why there is none.
        const described = metadata.json();
        outcome.pixels = `no image: ${described.sop_class ?? 'unnamed SOP class'}`;
        expect(described.no_preview_reason).toMatch(/holds no pixel data/);
        expect(preview.json().detail).toBe(described.no_preview_reason);
        if (reference.sop_class) expect(described.sop_class_uid).toBe(reference.sop_class);
      }
      // An image with pixels names its SOP class too.
      if (reference?.has_pixels && reference.sop_class && metadata.statusCode === 200)
        expect(metadata.json().sop_class_uid).toBe(reference.sop_class);
      if (!reference?.decoded) return;
      // Whatever the toolkit decodes, the product shows, with the same pixels.
      expect(preview.statusCode, preview.body).toBe(200);
      const stored = await get(`/uploads/${item.stored_filename}`);
      const volume = await decodeImage(new Uint8Array(stored.rawPayload), item.extension);
      // Every decoded image is checked, except a derived object (a segmentation, a dose grid) and a thumbnail
      // under 32 pixels a side, which are refused with the reason.
      if (['SEG', 'RTDOSE'].includes(volume.modality ?? '') || Math.min(volume.width, volume.height) < 32) {
        expect(qc.statusCode, qc.body).toBe(422);
        expect(qc.json().detail).toMatch(/not an acquired image|too small for its quality to be measured/);
      } else expect(qc.statusCode, qc.body).toBe(200);
      outcome.pixels = comparePixels(file, reference, volume);
      if (fromSource) {
        outcome.pixels += ' (against the source: pydicom has no codec for this syntax)';
        return;
      }
      const r = await comparePreview(preview.rawPayload, reference, volume);
      if (r !== undefined) {
        outcome.pixels += `; preview r=${r.toFixed(3)}`;
        expect(r, 'the preview shows the reference, windowed').toBeGreaterThanOrEqual(0.98);
      }
    };
    const gap = knownGap(file);
    if (!gap) return fidelity();
    // A known gap must still fail: once it is fixed, it leaves the list.
    outcome.pixels = `known gap: ${gap}`;
    await expect(fidelity(), `${file.label} is listed as a known gap but now agrees`).rejects.toThrow();
  });
});
