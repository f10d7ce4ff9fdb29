import { atom } from 'nanostores';
import type { ChatCompletionResponse } from '../../contract/qc.ts';
import type { UploadItem } from '../../contract/uploads.ts';
import { ANALYSIS_MODELS, analysisCsv, type AnalysisModel, type AnalysisRow } from '../lib/analysis-models.ts';
import { api, errorMessage } from '../lib/api.ts';
import { displayName } from '../lib/image-search.ts';
import { qcRequest } from '../lib/qc-request.ts';

/** A run of the Analysis page over the most recent images. */
export type AnalysisRun =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number; rows: AnalysisRow[] }
  | { status: 'done'; rows: AnalysisRow[] }
  | { status: 'failed'; message: string };

/** How many of the most recent images a run checks. */
export const RUN_SIZE = 5;

export const $analysisModel = atom<AnalysisModel>(ANALYSIS_MODELS[0]);
export const $analysisRun = atom<AnalysisRun>({ status: 'idle' });

/** Picks the model whose measurements the table shows. */
export function selectAnalysisModel(model: AnalysisModel): void {
  $analysisModel.set(model);
}

async function analyse(item: UploadItem): Promise<AnalysisRow> {
  const base = { name: displayName(item), storedFilename: item.stored_filename, issues: [] };
  try {
    const answer = await api.post(qcRequest(item.url), '/llm/generate-messages').json<ChatCompletionResponse>();
    const { verdict, confidence, metrics, issues } = answer.qc;
    return { ...base, verdict, confidence, metrics, issues };
  } catch (error) {
    return { ...base, error: errorMessage(error, 'Check failed') };
  }
}

/** Checks the (up to) five most recent images one after another, reporting progress as it goes. */
export async function runAnalysis(): Promise<void> {
  let items: UploadItem[];
  try {
    items = (await api.get('/uploads').json<UploadItem[]>()).slice(0, RUN_SIZE);
  } catch (error) {
    return $analysisRun.set({ status: 'failed', message: errorMessage(error, 'Failed to load images') });
  }
  const rows: AnalysisRow[] = [];
  $analysisRun.set({ status: 'running', done: 0, total: items.length, rows: [] });
  // One at a time: each check decodes a whole image on the server, and the progress stays honest.
  for (const item of items) {
    rows.push(await analyse(item));
    $analysisRun.set({ status: 'running', done: rows.length, total: items.length, rows: [...rows] });
  }
  $analysisRun.set({ status: 'done', rows });
}

/** The current results as a CSV file's text. */
export function analysisCsvText(): string {
  const run = $analysisRun.get();
  return analysisCsv($analysisModel.get(), run.status === 'done' || run.status === 'running' ? run.rows : []);
}
