import { atom } from 'nanostores';
import type { AuditActor, AuditItem, AuditKind, AuditPage } from '../../contract/audit.ts';
import { api, errorMessage } from '../lib/api.ts';
import { startOfDayIn } from '../lib/zone-midnight.ts';
import { $datePreferences } from './settings.ts';

/** The filters as the form holds them: days (YYYY-MM-DD, both included) in the time zone of Settings. */
export interface AuditFilterForm {
  actor: string;
  kind: AuditKind | '';
  from: string;
  to: string;
}

/** No filter: every event. */
export const NO_AUDIT_FILTERS: AuditFilterForm = { actor: '', kind: '', from: '', to: '' };

/** The log as last loaded: its pages so far, and whether more may follow. */
export type AuditLogState =
  | { status: 'loading' }
  | { status: 'ready'; items: AuditItem[]; next: string | null; loadingMore: boolean; error?: string }
  | { status: 'failed'; message: string };

export const $auditLog = atom<AuditLogState>({ status: 'loading' });
/** The filters the shown log was loaded with (and the export uses). */
export const $auditFilters = atom<AuditFilterForm>(NO_AUDIT_FILTERS);

/** Events asked for per page. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * The query string of the filters, days taken in `timeZone` (Settings' one by default): the "to" day is
 * included, so the range ends when the next day begins.
 * @example auditQueryString({ actor: '', kind: 'upload', from: '', to: '' }) // 'kind=upload'
 */
export function auditQueryString(filters: AuditFilterForm, timeZone = $datePreferences.get().timeZone): string {
  const query = new URLSearchParams();
  if (filters.actor) query.set('actor', filters.actor);
  if (filters.kind) query.set('kind', filters.kind);
  if (filters.from) query.set('from', startOfDayIn(filters.from, timeZone).toISOString());
  if (filters.to) query.set('to', startOfDayIn(filters.to, timeZone, 1).toISOString());
  return query.toString();
}

// Each load gets a number; an older answer arriving late is dropped.
let turn = 0;

async function page(workspaceId: string, filters: AuditFilterForm, cursor?: string): Promise<AuditPage> {
  const query = new URLSearchParams(auditQueryString(filters));
  query.set('limit', String(AUDIT_PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  return api.get(`/workspaces/${workspaceId}/audit?${query}`).json<AuditPage>();
}

/** Loads the first page of a workspace's log with these filters. */
export async function loadAuditLog(workspaceId: string, filters: AuditFilterForm): Promise<void> {
  const mine = ++turn;
  $auditFilters.set(filters);
  $auditLog.set({ status: 'loading' });
  try {
    const first = await page(workspaceId, filters);
    if (mine === turn)
      $auditLog.set({ status: 'ready', items: first.items, next: first.next_cursor, loadingMore: false });
  } catch (error) {
    if (mine === turn)
      $auditLog.set({ status: 'failed', message: errorMessage(error, 'Failed to load the audit log') });
  }
}

/** Adds the next page to the log shown. */
export async function loadMoreAudit(workspaceId: string): Promise<void> {
  const state = $auditLog.get();
  if (state.status !== 'ready' || !state.next || state.loadingMore) return;
  const mine = turn;
  $auditLog.set({ ...state, loadingMore: true, error: undefined });
  try {
    const next = await page(workspaceId, $auditFilters.get(), state.next);
    if (mine === turn)
      $auditLog.set({
        status: 'ready',
        items: [...state.items, ...next.items],
        next: next.next_cursor,
        loadingMore: false,
      });
  } catch (error) {
    if (mine === turn)
      $auditLog.set({ ...state, loadingMore: false, error: errorMessage(error, 'Failed to load more events') });
  }
}

/**
 * Downloads the CSV of every event the current filters give (the server's file name kept); resolves to
 * the file name, or rejects with a message to show.
 */
export async function exportAuditCsv(workspaceId: string): Promise<string> {
  let response: Response;
  try {
    response = await api.get(`/workspaces/${workspaceId}/audit.csv?${auditQueryString($auditFilters.get())}`).res();
  } catch (error) {
    throw new Error(errorMessage(error, 'Export failed'), { cause: error });
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'lumenqc-audit.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}

/** Everyone the log names as an actor, for the Who filter; empty until loaded (or when that fails). */
export const $auditActors = atom<AuditActor[]>([]);

/** Loads the people the Who filter offers: those the workspace's log names, former members included. */
export async function loadAuditActors(workspaceId: string): Promise<void> {
  $auditActors.set([]);
  try {
    $auditActors.set(await api.get(`/workspaces/${workspaceId}/audit/actors`).json<AuditActor[]>());
  } catch {
    // The filter then offers Everyone only; the log itself reports its own failures.
  }
}
