/** A CT window as radiologists give it: width and level (centre), in Hounsfield units. */
export interface CtWindow {
  label: string;
  width: number;
  level: number;
}

/** The usual CT windows. */
export const CT_WINDOWS: readonly CtWindow[] = [
  { label: 'Soft tissue', width: 400, level: 40 },
  { label: 'Lung', width: 1500, level: -600 },
  { label: 'Bone', width: 1800, level: 400 },
  { label: 'Brain', width: 80, level: 40 },
];

/**
 * The display range of a width and level.
 * @example windowRange({ width: 400, level: 40 }) // { min: -160, max: 240 }
 */
export function windowRange(w: Pick<CtWindow, 'width' | 'level'>): { min: number; max: number } {
  return { min: w.level - w.width / 2, max: w.level + w.width / 2 };
}

/**
 * Whether a volume holds Hounsfield units: air at about −1000 makes CT's darkest voxels far below zero,
 * which MR and PET never are.
 */
export function looksLikeHounsfield(globalMin: number): boolean {
  return globalMin <= -500;
}
