import { atom, map } from 'nanostores';
import {
  findStructure,
  modelFromQuery,
  modelViewerLink,
  structureFileUrl,
  type StructureEntry,
} from '../lib/structure-catalog.ts';
import { structureStats, type StructureStats } from '../lib/structure-stats.ts';
import { DEFAULT_OPTIONS, type ViewerOptions } from '../lib/structure-style.ts';
import { $router } from './router.ts';

/** The model the address asks for. */
export const $moleculeRequest = atom<{ id: string; type: string }>(modelFromQuery(''));

/** The structure file of the requested model, as far as it has loaded. */
export type MoleculeModel =
  | { status: 'loading'; id: string; type: string }
  | { status: 'loaded'; entry: StructureEntry; text: string; stats: StructureStats }
  | { status: 'error'; id: string; type: string; message: string };

/** The requested model's file and statistics. */
export const $moleculeModel = atom<MoleculeModel>({ status: 'loading', ...modelFromQuery('') });

/** Representation, colour scheme and background chosen by the user. */
export const $moleculeOptions = map<ViewerOptions>({ ...DEFAULT_OPTIONS });

/** The outcome of the last Share click, announced to screen readers. */
export const $shareNotice = atom<{ link: string; copied: boolean } | undefined>(undefined);

/** The message shown for an id and type the catalogue does not have. */
export function unknownModelMessage(id: string, type: string): string {
  return `No 3D model "${id}" of type "${type}" exists. Choose one of the models below.`;
}

let loadSequence = 0;

/** Fetches and counts the requested model's file; a later request wins over one still in flight. */
export async function loadRequestedModel(fetcher: typeof fetch = fetch): Promise<void> {
  const { id, type } = $moleculeRequest.get();
  const sequence = ++loadSequence;
  const entry = findStructure(id, type);
  if (!entry) {
    $moleculeModel.set({ status: 'error', id, type, message: unknownModelMessage(id, type) });
    return;
  }
  $moleculeModel.set({ status: 'loading', id, type });
  try {
    const response = await fetcher(structureFileUrl(entry));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const text = await response.text();
    const stats = structureStats(text, entry.format);
    if (sequence === loadSequence) $moleculeModel.set({ status: 'loaded', entry, text, stats });
  } catch {
    if (sequence !== loadSequence) return;
    $moleculeModel.set({
      status: 'error',
      id,
      type,
      message: `The structure file of "${id}" could not be loaded. Try again.`,
    });
  }
}

/** Reads the model from the address bar (first visit) and loads it. */
export function followAddress(): Promise<void> {
  $moleculeRequest.set(modelFromQuery(window.location.search));
  $shareNotice.set(undefined);
  return loadRequestedModel();
}

// Loads the model an address asks for, unless it is the one already asked for.
function follow(search: string): void {
  const wanted = modelFromQuery(search);
  const current = $moleculeRequest.get();
  if (wanted.id === current.id && wanted.type === current.type) return;
  $moleculeRequest.set(wanted);
  $shareNotice.set(undefined);
  void loadRequestedModel();
}

/**
 * Keeps the view on the model the address names: after a related-model link, the header's 3D Models
 * link, Back and Forward. The dashboard router sees every one of them; its page carries the query.
 * Returns the stop.
 */
export function watchAddress(): () => void {
  void followAddress();
  return $router.listen((page) => {
    if (page?.route === 'modelViewer') follow(`?${new URLSearchParams(page.search)}`);
  });
}

/** Switches to another model through the dashboard router, so history and the header stay in step. */
export function openModel(id: string, type: string): void {
  $router.open(`${window.location.pathname}?${new URLSearchParams({ id, type })}`);
}

/** Changes one of the viewer's choices. */
export function setViewerOption<K extends keyof ViewerOptions>(key: K, value: ViewerOptions[K]): void {
  $moleculeOptions.set({ ...$moleculeOptions.get(), [key]: value });
}

/** Copies the link of the model on screen; where the clipboard is refused, shows it to copy by hand. */
export async function shareModel(): Promise<void> {
  const { id, type } = $moleculeRequest.get();
  const link = modelViewerLink(window.location.origin, id, type);
  try {
    await navigator.clipboard.writeText(link);
    $shareNotice.set({ link, copied: true });
  } catch {
    $shareNotice.set({ link, copied: false });
  }
}

/** Saves the structure file on screen under its own name (protein_001.pdb). */
export function downloadStructure(): void {
  const model = $moleculeModel.get();
  if (model.status !== 'loaded') return;
  const type = model.entry.format === 'pdb' ? 'chemical/x-pdb' : 'chemical/x-mdl-sdfile';
  const url = URL.createObjectURL(new Blob([model.text], { type }));
  saveAs(url, `${model.entry.id}.${model.entry.format}`);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Starts a browser download of a URL under a file name. */
export function saveAs(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}
