// The proof of de-identification: pydicom writes one file per IOD family, explicit and implicit VR, with a
// distinct marker in every attribute of PS3.15 Table E.1-1 it can encode (at the top level, again inside a
// sequence the table does not name, in per-frame functional groups, in private attributes and sequences, an
// overlay, a curve, an icon and trailing padding). Each is uploaded through the API; the stored bytes are
// searched raw for every marker, pydicom reads back what each attribute became, and dciodvfy (dicom3tools)
// must find no error in the output that it did not find in the input.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionFor, dictionaryVr, iodOf } from '../../server/imaging/dicom/deidentify-profile.ts';
import { profileRows } from '../../server/imaging/dicom/deidentify-profile-table.ts';
import { uploadStorageKey } from '../../server/modules/uploads/uploads.repository.ts';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createSignedInUser, type TestUser } from './helpers/users.ts';
import { uploadFile } from './uploads-fixtures.ts';

const tablePath = new URL('../../scripts/reference/dicom-confidentiality-profile.tsv', import.meta.url).pathname;
const script = new URL('../fixtures/marked_dicom.py', import.meta.url).pathname;
const SOP_CLASSES: Record<string, string> = {
  ct: '1.2.840.10008.5.1.4.1.1.2',
  mr: '1.2.840.10008.5.1.4.1.1.4',
  'us-multiframe': '1.2.840.10008.5.1.4.1.1.3.1',
  'enhanced-mr': '1.2.840.10008.5.1.4.1.1.4.1',
  sr: '1.2.840.10008.5.1.4.1.1.88.33',
  rtstruct: '1.2.840.10008.5.1.4.1.1.481.3',
};

interface Placed {
  tag: string;
  vr: string;
  where: string;
}
interface Manifest {
  [file: string]: { placed: Placed[]; searchable: string[] };
}

/** Basic Profile codes straight from the table file, independent of the generated profile. */
function tableCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const line of readFileSync(tablePath, 'utf8').split('\n')) {
    const match = /^\(([0-9A-F]{4}),([0-9A-F]{4})\)\t[^\t]*\t([^\t]*)/.exec(line);
    if (match) codes.set(`${match[1]}${match[2]}`, match[3]!);
  }
  return codes;
}

/** What a resolved action looks like in the output, as marked_dicom.py's check reports it. */
function seenAs(action: string, vr: string): string {
  if (vr === 'SQ') return action === 'X' ? 'X' : action === 'Z' ? 'Z' : 'kept';
  if (action === 'U*') return 'U';
  if (action === 'D' && vr === 'UI') return 'U';
  return action;
}

/** Whether an observation is one of the choices a table code offers. */
function allowedBy(code: string, observed: string, vr: string): boolean {
  const choices = code.split('/').map((c) => (c === 'U*' ? 'U' : c));
  if (vr === 'SQ' && observed === 'kept') return choices.some((c) => c === 'D' || c === 'U');
  if (vr === 'UI' && observed === 'U') return choices.some((c) => c === 'U' || c === 'D');
  return choices.includes(observed);
}

function dciodvfyErrors(file: string): Set<string> {
  const run = spawnSync('dciodvfy', [file], { encoding: 'latin1' });
  // UIDs and numbers differ between input and output by design; the kind of error is what counts.
  return new Set(
    `${run.stdout}${run.stderr}`
      .split('\n')
      .filter((line) => line.startsWith('Error'))
      .map((line) => line.replace(/[0-9][0-9.]*/g, 'N')),
  );
}

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let dir: string;
let manifest: Manifest;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'lumenqc-marked-'));
  // pydicom 2.3's dictionary predates some rows of the table; the data dictionary here gives their VRs.
  const vrs: Record<string, string> = {};
  for (const row of profileRows) {
    const vr = /^[0-9a-f]{8}$/.test(row.tag) ? dictionaryVr(`x${row.tag}`) : undefined;
    if (vr) vrs[row.tag.toUpperCase()] = vr;
  }
  writeFileSync(path.join(dir, 'vrs.json'), JSON.stringify(vrs));
  execFileSync('/usr/bin/python3', [script, 'make', tablePath, dir, path.join(dir, 'vrs.json')]);
  manifest = JSON.parse(readFileSync(path.join(dir, 'markers.json'), 'utf8')) as Manifest;
  t = await createTestApp();
  owner = await createSignedInUser(t);
  other = await createSignedInUser(t);
}, 120_000);
afterAll(() => t?.close());

async function upload(user: TestUser, name: string, workspaceId?: string): Promise<{ stored: Buffer; file: string }> {
  const res = await uploadFile(t, user, name, readFileSync(path.join(dir, name)), workspaceId);
  expect(res.statusCode, res.body).toBe(201);
  const item = res.json<{ stored_filename: string }>();
  const stored = readFileSync(path.join(t.dataDir, 'uploads', uploadStorageKey(item.stored_filename)));
  const file = path.join(dir, `stored-${user.id}-${workspaceId ?? 'own'}-${name}`);
  writeFileSync(file, stored);
  return { stored, file };
}

describe('de-identification, proven on every attribute of PS3.15 Table E.1-1', () => {
  const codes = tableCodes();
  const covered = new Set<string>();

  for (const family of Object.keys(SOP_CLASSES)) {
    for (const syntax of ['explicit', 'implicit']) {
      const name = `${family}-${syntax}.dcm`;
      it(`${name}: no marker survives in the stored bytes, and each attribute has the table's action`, async () => {
        const { searchable } = manifest[name]!;
        const original = readFileSync(path.join(dir, name)).toString('latin1');
        const present = searchable.filter((marker) => original.includes(marker));
        expect(present.length).toBeGreaterThan(1000);
        const { stored, file } = await upload(owner, name);
        const raw = stored.toString('latin1');
        expect(present.filter((marker) => raw.includes(marker))).toEqual([]);

        const check = JSON.parse(
          execFileSync('/usr/bin/python3', [script, 'check', path.join(dir, 'markers.json'), name, file], {
            encoding: 'utf8',
            maxBuffer: 64 * 1024 * 1024,
          }),
        ) as { results: (Placed & { observed: string })[]; private: boolean };
        expect(check.private).toBe(false);
        const iod = iodOf(SOP_CLASSES[family]);
        const wrong: string[] = [];
        const expectedOf = (tag: string, vr: string, where: string): string => {
          const steps = where.split('/');
          // An item inside a sequence that was removed or emptied goes with it.
          if (steps.length > 1) {
            const parent = expectedOf(steps.at(-1)!, 'SQ', steps.slice(0, -1).join('/'));
            if (parent === 'X' || parent === 'Z') return 'X';
          }
          // Clinical Trial Protocol Ethics Committee Name goes with the Approval Number it depends on.
          if (tag === '00120081') return 'X';
          return seenAs(actionFor(`x${tag.toLowerCase()}`, iod, where !== 'top')!, vr);
        };
        for (const { tag, vr, where, observed } of check.results) {
          const code = codes.get(tag);
          if (!code) continue;
          const expected = expectedOf(tag, vr, where);
          if (observed !== expected || (expected !== 'X' && !allowedBy(code, observed, vr)))
            wrong.push(`${tag} ${where} ${code}: expected ${expected}, stored ${observed}`);
          covered.add(tag);
        }
        expect(wrong).toEqual([]);
        const before = dciodvfyErrors(path.join(dir, name));
        const after = dciodvfyErrors(file);
        expect([...after].filter((error) => !before.has(error))).toEqual([]);
      }, 60_000);
    }
  }

  it('covered every row of the table pydicom and the dictionary can encode', () => {
    const rows = [...codes.keys()].filter((tag) => !tag.includes('X'));
    const missing = rows.filter((tag) => !covered.has(tag));
    console.log(
      `PS3.15 Table E.1-1: ${covered.size} of ${rows.length} rows with a tag of their own covered` +
        ` (not: ${missing.join(', ')}), plus the 50xx, 60xx and private-attribute rows`,
    );
    expect(covered.size).toBeGreaterThan(590);
  });

  it('gives the same file the same UIDs for every member of a workspace and different ones in another', async () => {
    // Every UID but the Implementation Class UID, which names this software and is the same for everyone.
    const uidsOf = (bytes: Buffer) =>
      [...bytes.toString('latin1').matchAll(/2\.25\.\d+/g)]
        .map((m) => m[0])
        .filter((uid) => uid !== '2.25.240331726946331145870768413451046431101')
        .sort();
    const team = await t.app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: owner.auth,
      payload: { name: 'Shared series' },
    });
    expect(team.statusCode).toBe(201);
    const teamId = team.json<{ id: string }>().id;
    const colleague = await createSignedInUser(t);
    await t.app.workspaces.addMember(teamId, colleague.id, 'member', t.clock.now());
    const first = await upload(owner, 'ct-explicit.dcm', teamId);
    const again = await upload(owner, 'ct-explicit.dcm', teamId);
    const byColleague = await upload(colleague, 'ct-explicit.dcm', teamId);
    const ownLibrary = await upload(owner, 'ct-explicit.dcm');
    const theirs = await upload(other, 'ct-explicit.dcm');
    expect(uidsOf(first.stored).length).toBeGreaterThan(50);
    expect(uidsOf(again.stored)).toEqual(uidsOf(first.stored));
    // Another member's upload of the same source gets the same UIDs: a series stays one across uploaders.
    expect(uidsOf(byColleague.stored)).toEqual(uidsOf(first.stored));
    const inTeam = new Set(uidsOf(first.stored));
    // The same uploader's own workspace, and someone else's, remap to UIDs the team's never share.
    expect(uidsOf(ownLibrary.stored).filter((uid) => inTeam.has(uid))).toEqual([]);
    expect(uidsOf(theirs.stored).filter((uid) => inTeam.has(uid))).toEqual([]);
    expect(uidsOf(theirs.stored).filter((uid) => new Set(uidsOf(ownLibrary.stored)).has(uid))).toEqual([]);
  });
});
