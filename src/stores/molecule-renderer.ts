import type { GLViewer } from '3dmol';
import { atom } from 'nanostores';
import { backgroundColor, styleSpec, type ViewerOptions } from '../lib/structure-style.ts';
import { $moleculeModel, $moleculeOptions, saveAs, type MoleculeModel } from './molecule-viewer.ts';

/** Id of the model the canvas shows now: the view is loading until it equals the requested one. */
export const $renderedModelId = atom<string | undefined>(undefined);

/** Set when 3D rendering cannot start in this browser (no WebGL, or the library failed to load). */
export const $rendererError = atom<string | undefined>(undefined);

let viewer: GLViewer | undefined;
let shownText: string | undefined;
let initialView: unknown[] | undefined;

function draw(model: MoleculeModel, options: ViewerOptions): void {
  if (!viewer || model.status !== 'loaded') return;
  viewer.setBackgroundColor(backgroundColor(options.background), 1);
  if (shownText !== model.text) {
    viewer.removeAllModels();
    viewer.addModel(model.text, model.entry.format);
    shownText = model.text;
    viewer.setStyle({}, styleSpec(options, model.entry.type));
    viewer.zoomTo();
    initialView = viewer.getView();
  } else {
    viewer.setStyle({}, styleSpec(options, model.entry.type));
  }
  viewer.render();
  $renderedModelId.set(model.entry.id);
}

/**
 * Starts 3Dmol.js in an element and keeps it drawing the current model and choices. 3Dmol.js is
 * imported here, on first use, so it stays a chunk of its own. Returns the function that stops it.
 */
export function mountMoleculeViewer(element: HTMLElement): () => void {
  let stopped = false;
  const unsubscribes: (() => void)[] = [];
  $rendererError.set(undefined);
  import('3dmol')
    .then(($3Dmol) => {
      if (stopped) return;
      viewer = $3Dmol.createViewer(element, { backgroundColor: 'white', antialias: true });
      if (!viewer) throw new Error('no WebGL');
      const redraw = () => draw($moleculeModel.get(), $moleculeOptions.get());
      unsubscribes.push($moleculeModel.subscribe(redraw), $moleculeOptions.listen(redraw));
    })
    .catch(() => {
      if (!stopped) $rendererError.set('3D rendering could not start: this browser has WebGL turned off.');
    });
  return () => {
    stopped = true;
    unsubscribes.forEach((stop) => stop());
    viewer?.clear();
    viewer = undefined;
    shownText = undefined;
    $renderedModelId.set(undefined);
  };
}

/** Brings the camera back to where the model first appeared. */
export function resetMoleculeView(): void {
  if (!viewer || !initialView) return;
  viewer.setView(initialView);
  viewer.render();
}

/** Turns the model about a screen axis: the keyboard's way to do what dragging does. */
export function rotateMolecule(axis: 'x' | 'y', degrees: number): void {
  if (!viewer) return;
  viewer.rotate(degrees, axis);
  viewer.render();
}

/** Zooms in (factor above 1) or out (below 1). */
export function zoomMolecule(factor: number): void {
  if (!viewer) return;
  viewer.zoom(factor);
  viewer.render();
}

/** Saves what the canvas shows as a PNG file named after the model. */
export function downloadSnapshot(): void {
  const model = $moleculeModel.get();
  if (!viewer || model.status !== 'loaded') return;
  saveAs(viewer.pngURI(), `${model.entry.id}.png`);
}
