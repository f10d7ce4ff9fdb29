import type { Niivue } from '@niivue/niivue';
import { atom } from 'nanostores';
import type { UploadItem } from '../../contract/uploads.ts';
import { api } from '../lib/api.ts';
import { apiPathOf } from './images.ts';
import { fetchWithProgress } from './volume-download.ts';
import { looksLikeHounsfield, windowRange, type CtWindow } from './volume-window-presets.ts';

/** Where opening a volume has got to. */
export type VolumeStatus =
  | { phase: 'downloading'; received: number; total?: number }
  | { phase: 'preparing' }
  | { phase: 'ready'; dims: [number, number, number]; hounsfield: boolean; frames: number }
  | { phase: 'error'; message: string };

/** The crosshair: voxel indexes, millimetres and the value under it. */
export interface VolumeCursor {
  voxel: [number, number, number];
  mm: [number, number, number];
  value: number;
}

/** Loading state of the open volume. */
export const $volumeStatus = atom<VolumeStatus>({ phase: 'downloading', received: 0 });
/** Crosshair position and voxel value, updated as the user clicks or scrolls. */
export const $volumeCursor = atom<VolumeCursor | undefined>(undefined);
/** The display window (what maps to black and to white), updated by dragging and by presets. */
export const $volumeWindow = atom<{ min: number; max: number } | undefined>(undefined);
/** The colour map in use. */
export const $volumeColormap = atom('gray');
/** Which volume (time point) of a 4D image is shown, from 0. */
export const $volumeFrame = atom(0);

/** Colour maps offered, all built into NiiVue. */
export const VOLUME_COLORMAPS = ['gray', 'hot', 'winter', 'plasma', 'viridis', 'inferno'] as const;

/** The name NiiVue needs to recognise the file's format, from the item's extension. */
export function volumeFileName(item: Pick<UploadItem, 'stored_filename' | 'extension'>): string {
  const dicom = item.extension === '.dcm' || item.extension === '.zip';
  return dicom ? `${item.stored_filename}.nii` : `volume${item.extension}`;
}

// NiiVue reads NIfTI and NRRD itself; DICOM (one file, or a series' .zip) is turned into NIfTI first.
async function asNiftiWhenDicom(item: UploadItem, bytes: ArrayBuffer): Promise<ArrayBuffer> {
  if (item.extension !== '.dcm' && item.extension !== '.zip') return bytes;
  const { dicomToNifti, dicomArchiveToNifti } = await import('./volume-dicom.ts');
  return item.extension === '.zip' ? dicomArchiveToNifti(bytes) : dicomToNifti([bytes]);
}

let viewer: Niivue | undefined;
let controller: AbortController | undefined;

const round = (n: number) => Math.round(n * 100) / 100;

function followCrosshair(nv: Niivue): void {
  nv.onLocationChange = (raw) => {
    const location = raw as { vox: number[]; mm: number[]; values: { value: number }[] };
    $volumeCursor.set({
      voxel: [location.vox[0] ?? 0, location.vox[1] ?? 0, location.vox[2] ?? 0],
      mm: [round(location.mm[0] ?? 0), round(location.mm[1] ?? 0), round(location.mm[2] ?? 0)],
      value: round(location.values[0]?.value ?? 0),
    });
  };
  nv.onIntensityChange = (volume) =>
    $volumeWindow.set({ min: round(volume.cal_min ?? 0), max: round(volume.cal_max ?? 0) });
}

/**
 * Downloads an upload with the user's bearer token (never an open URL), shows progress, and hands the
 * bytes to NiiVue on the canvas: axial, coronal and sagittal slices and a 3D render. NiiVue is
 * imported here, on first use, so it is a chunk of its own.
 */
export async function openVolume(item: UploadItem, canvas: HTMLCanvasElement): Promise<void> {
  closeVolume();
  const own = new AbortController();
  controller = own;
  $volumeStatus.set({ phase: 'downloading', received: 0 });
  $volumeCursor.set(undefined);
  $volumeWindow.set(undefined);
  $volumeColormap.set('gray');
  try {
    const [bytes, module] = await Promise.all([
      fetchWithProgress(api, apiPathOf(item.url), own.signal, (received, total) =>
        $volumeStatus.set({ phase: 'downloading', received, total }),
      ),
      import('@niivue/niivue'),
    ]);
    if (own.signal.aborted) return;
    $volumeStatus.set({ phase: 'preparing' });
    const volumeBytes = await asNiftiWhenDicom(item, bytes);
    const nv = new module.Niivue({
      backColor: [0, 0, 0, 1],
      show3Dcrosshair: true,
      multiplanarShowRender: module.SHOW_RENDER.ALWAYS,
      multiplanarLayout: module.MULTIPLANAR_TYPE.GRID,
      dragMode: module.DRAG_MODE.contrast,
      isColorbar: true,
      dragAndDropEnabled: false,
      logLevel: 'error',
      // Shown as the server's previews are: the radiological way (the patient's right on the viewer's
      // left), anterior on the left of sagittal slices, with the patient direction on every side.
      isRadiologicalConvention: true,
      sagittalNoseLeft: true,
      showAllOrientationMarkers: true,
    });
    viewer = nv;
    followCrosshair(nv);
    await nv.attachToCanvas(canvas);
    await nv.loadFromArrayBuffer(volumeBytes, volumeFileName(item));
    if (own.signal.aborted) return;
    nv.setSliceType(nv.sliceTypeMultiplanar);
    const volume = nv.volumes[0];
    if (!volume) throw new Error('empty');
    $volumeWindow.set({ min: round(volume.cal_min ?? 0), max: round(volume.cal_max ?? 0) });
    const dims = (volume.dims ?? [3, 1, 1, 1]).slice(1, 4) as [number, number, number];
    $volumeFrame.set(0);
    $volumeStatus.set({
      phase: 'ready',
      dims,
      hounsfield: looksLikeHounsfield(volume.global_min ?? 0),
      frames: Math.max(1, volume.nFrame4D ?? 1),
    });
    // Start at the centre so every view shows tissue, and report the voxel there.
    nv.moveCrosshairInVox(0, 0, 0);
  } catch (error) {
    if (own.signal.aborted) return;
    const message = error instanceof Error && error.message.includes('DICOM') ? error.message : undefined;
    $volumeStatus.set({ phase: 'error', message: message ?? 'This volume could not be opened.' });
  }
}

/** Stops a download in flight and frees the WebGL context. */
export function closeVolume(): void {
  controller?.abort();
  controller = undefined;
  viewer?.cleanup();
  viewer = undefined;
}

/** Moves the crosshair, and with it the slices, by whole voxels. */
export function moveSlice(axis: 0 | 1 | 2, delta: number): void {
  if (!viewer) return;
  const step: [number, number, number] = [0, 0, 0];
  step[axis] = delta;
  viewer.moveCrosshairInVox(...step);
}

/** Sets the display window to [min, max] (values below show black, above white). */
export function setVolumeWindow(min: number, max: number): void {
  const volume = viewer?.volumes[0];
  if (!viewer || !volume || !(max > min)) return;
  volume.cal_min = min;
  volume.cal_max = max;
  viewer.updateGLVolume();
  $volumeWindow.set({ min: round(min), max: round(max) });
}

/** The window of a preset: the robust range NiiVue found, the full range, or a narrow centre band. */
export function applyWindowPreset(preset: 'auto' | 'full' | 'narrow'): void {
  const volume = viewer?.volumes[0];
  if (!volume) return;
  const low = volume.robust_min ?? volume.global_min ?? 0;
  const high = volume.robust_max ?? volume.global_max ?? 1;
  if (preset === 'auto') setVolumeWindow(low, high);
  else if (preset === 'full') setVolumeWindow(volume.global_min ?? low, volume.global_max ?? high);
  else setVolumeWindow(low + (high - low) * 0.35, low + (high - low) * 0.65);
}

/** Applies a CT window given as width and level. */
export function applyCtWindow(window: CtWindow): void {
  const { min, max } = windowRange(window);
  setVolumeWindow(min, max);
}

/** Shows volume `frame` (a time point, from 0) of a 4D image. */
export function setVolumeFrame(frame: number): void {
  const volume = viewer?.volumes[0];
  if (!viewer || !volume) return;
  viewer.setFrame4D(volume.id, frame);
  $volumeFrame.set(frame);
}

/** Changes the colour map of the volume. */
export function setVolumeColormap(name: string): void {
  const volume = viewer?.volumes[0];
  if (!viewer || !volume) return;
  viewer.setColormap(volume.id, name);
  $volumeColormap.set(name);
}
