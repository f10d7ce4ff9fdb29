/**
 * Actions of the PS3.15 Annex E Basic Application Level Confidentiality Profile, by tag:
 * X remove, Z replace with an empty value, D replace with a dummy value, U replace the UID consistently.
 * Written as "gggg,eeee action VR" (VR is needed to make dummies in implicit-VR files).
 */
const table = `
0008,0014 U UI|0008,0015 X DT|0008,0018 U UI|0008,0020 Z DA|0008,0021 X DA|0008,0022 X DA|0008,0023 Z DA
0008,0024 X DA|0008,0025 X DA|0008,002A X DT|0008,0030 Z TM|0008,0031 X TM|0008,0032 X TM|0008,0033 Z TM
0008,0034 X TM|0008,0035 X TM|0008,0050 Z SH|0008,0058 U UI|0008,0080 X LO|0008,0081 X ST|0008,0082 X SQ
0008,0090 Z PN|0008,0092 X ST|0008,0094 X SH|0008,0096 X SQ|0008,009C Z PN|0008,009D X SQ|0008,0201 X SH
0008,0012 X DA|0008,0013 X TM|0008,1010 X SH|0008,1030 X LO|0008,103E X LO|0008,1040 X LO|0008,1048 X PN
0008,1049 X SQ|0008,1050 X PN|0008,1052 X SQ|0008,1060 X PN|0008,1062 X SQ|0008,1070 X PN|0008,1072 X SQ
0008,1080 X LO|0008,1084 X SQ|0008,1110 X SQ|0008,1111 X SQ|0008,1120 X SQ|0008,1140 X SQ|0008,1155 U UI
0008,1195 U UI|0008,2111 X ST|0008,3010 U UI|0010,0010 Z PN|0010,0020 Z LO|0010,0021 X LO|0010,0030 Z DA
0010,0032 X TM|0010,0040 Z CS|0010,0050 X SQ|0010,1000 X LO|0010,1001 X PN|0010,1002 X SQ|0010,1005 X PN
0010,1010 X AS|0010,1020 X DS|0010,1030 X DS|0010,1040 X LO|0010,1060 X PN|0010,1080 X LO|0010,1081 X LO
0010,1090 X LO|0010,2150 X LO|0010,2152 X LO|0010,2154 X SH|0010,2160 X SH|0010,2180 X SH|0010,21A0 X CS
0010,21B0 X LT|0010,21C0 X US|0010,21F0 X LO|0010,2203 X CS|0010,4000 X LT|0018,1000 X LO|0018,1002 U UI
0018,1004 X LO|0018,1005 X LO|0018,1007 X LO|0018,1008 X LO|0018,1030 X LO|0018,4000 X LT|0018,700A X SH
0018,9424 X LT|0018,A003 X ST|0020,000D U UI|0020,000E U UI|0020,0010 Z SH|0020,0052 U UI|0020,0200 U UI
0020,3401 X CS|0020,3404 X LO|0020,3406 X LO|0020,4000 X LT|0020,9161 U UI|0020,9164 U UI|0028,1199 U UI
0032,0012 X LO|0032,1032 X PN|0032,1033 X LO|0032,1060 X LO|0032,4000 X LT|0038,0010 X LO|0038,0300 X LO
0038,0400 X LO|0040,0001 X AE|0040,0006 X PN|0040,0010 X SH|0040,0011 X SH|0040,0241 X AE|0040,0242 X SH
0040,0243 X SH|0040,0244 X DA|0040,0245 X TM|0040,0253 X SH|0040,0254 X LO|0040,0275 X SQ|0040,1001 X SH
0040,2016 X LO|0040,2017 X LO|0040,2400 X LT|0040,3001 X LO|0040,4023 U UI|0040,A124 U UI|0040,A730 X SQ
0088,0140 U UI|0400,0100 X UI|0400,0561 X SQ|3006,0024 U UI|3006,00C2 U UI|FFFA,FFFA X SQ
`;

/** One profile action and the VR of the attribute. */
export interface ProfileAction {
  action: 'X' | 'Z' | 'D' | 'U';
  vr: string;
}

/** The profile as a map from dicom-parser tag keys ('x00100010') to actions. */
export const basicProfile: ReadonlyMap<string, ProfileAction> = new Map(
  table
    .trim()
    .split(/[|\n]/)
    .map((entry) => {
      const [tag, action, vr] = entry.trim().split(' ') as [string, ProfileAction['action'], string];
      return [`x${tag.replace(',', '').toLowerCase()}`, { action, vr }] as const;
    }),
);

/** UIDs that name kinds of things (SOP classes, coding schemes), not patients or studies: kept as they are. */
export const keptUidTags = new Set([
  'x00080016',
  'x00081150',
  'x0008010c',
  'x00020002',
  'x00020010',
  'x00081190',
  'x0040e001',
  'x00080062',
  'x0008001a',
]);

/**
 * What the profile says for a tag not in the table: private groups, curves (50xx), overlay comments
 * and overlay data (60xx,4000 and 60xx,3000) are removed; anything else is kept.
 */
export function actionFor(tag: string): ProfileAction | undefined {
  const listed = basicProfile.get(tag);
  if (listed) return listed;
  const group = parseInt(tag.slice(1, 5), 16);
  if (group % 2 === 1) return { action: 'X', vr: 'UN' };
  if (tag.startsWith('x50')) return { action: 'X', vr: 'UN' };
  if (tag.startsWith('x60') && (tag.endsWith('4000') || tag.endsWith('3000'))) return { action: 'X', vr: 'UN' };
  return undefined;
}
