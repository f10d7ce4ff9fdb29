import { WORKSPACE_HEADER } from '../../contract/workspaces.ts';
import { $workspaceId } from '../stores/workspace-choice.ts';

/** How an XHR upload ended. */
export type XhrUploadResult =
  { kind: 'done'; status: number; body: unknown } | { kind: 'aborted' } | { kind: 'stalled' } | { kind: 'network' };

/** A running upload. */
export interface XhrUpload {
  result: Promise<XhrUploadResult>;
  abort(): void;
}

/** Without a single byte sent for this long, an upload counts as stalled. */
export const UPLOAD_STALL_MS = 30_000;

/**
 * Sends one file (or several, each its own part) as multipart field `file` with XMLHttpRequest, the only
 * browser API that reports upload progress. No overall timeout (a large volume takes minutes); instead it
 * gives up when no byte has moved for `stallMs`.
 */
export function sendFileWithProgress(
  url: string,
  file: (Blob & { name?: string }) | readonly (Blob & { name?: string })[],
  token: string | undefined,
  onProgress: (loaded: number, total: number) => void,
  stallMs = UPLOAD_STALL_MS,
): XhrUpload {
  const files = 'size' in file ? [file] : file;
  const xhr = new XMLHttpRequest();
  let settle: (result: XhrUploadResult) => void = () => undefined;
  const result = new Promise<XhrUploadResult>((resolve) => (settle = resolve));
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  let stalled = false;
  const armStallTimer = () => {
    clearTimeout(stallTimer);
    stallTimer = setTimeout(() => {
      stalled = true;
      xhr.abort();
    }, stallMs);
  };

  xhr.upload.addEventListener('progress', (event) => {
    armStallTimer();
    onProgress(event.loaded, event.lengthComputable ? event.total : files.reduce((sum, f) => sum + f.size, 0));
  });
  // Once every byte is sent the server stores and checks the file; that is not a stall.
  xhr.upload.addEventListener('load', () => clearTimeout(stallTimer));
  xhr.addEventListener('load', () => {
    clearTimeout(stallTimer);
    let body: unknown = xhr.responseText;
    try {
      body = JSON.parse(xhr.responseText);
    } catch {
      // not JSON: keep the text
    }
    settle({ kind: 'done', status: xhr.status, body });
  });
  xhr.addEventListener('error', () => {
    clearTimeout(stallTimer);
    settle({ kind: 'network' });
  });
  xhr.addEventListener('abort', () => {
    clearTimeout(stallTimer);
    settle(stalled ? { kind: 'stalled' } : { kind: 'aborted' });
  });

  const form = new FormData();
  for (const part of files) form.append('file', part, part.name ?? 'upload');
  xhr.open('POST', url);
  // The content type is left to the browser, which adds the multipart boundary (SPEC §7).
  if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
  // Into the workspace chosen in the header's switcher, as every other call.
  const workspaceId = $workspaceId.get();
  if (workspaceId) xhr.setRequestHeader(WORKSPACE_HEADER, workspaceId);
  xhr.send(form);
  armStallTimer();
  return { result, abort: () => xhr.abort() };
}
