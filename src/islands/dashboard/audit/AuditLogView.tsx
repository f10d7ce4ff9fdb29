import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { AUDIT_KINDS, auditKinds, type AuditItem, type AuditKind } from '../../../../contract/audit.ts';
import type { MemberItem } from '../../../../contract/workspaces.ts';
import {
  $auditActors,
  $auditFilters,
  $auditLog,
  NO_AUDIT_FILTERS,
  exportAuditCsv,
  loadAuditActors,
  loadAuditLog,
  loadMoreAudit,
  type AuditFilterForm,
} from '../../../stores/audit.ts';
import { $currentWorkspace, $members, loadMembers } from '../../../stores/workspaces.ts';
import DateTime from '../DateTime.tsx';
import './audit.css';

/** What an event was done to, in words, from the fields its detail holds. */
function describe(item: AuditItem, members: readonly MemberItem[]): string {
  const d = item.detail;
  const text = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : undefined);
  const nameOf = (id: string | undefined) => members.find((m) => m.user_id === id)?.name ?? 'a former member';
  const parts: string[] = [];
  const image = text('name') ?? text('original_name') ?? text('stored_filename');
  if (image) parts.push(image);
  if (text('member_id')) parts.push(nameOf(text('member_id')));
  if (text('email')) parts.push(text('email')!);
  if (text('role')) parts.push(`role ${text('role')}`);
  if (Array.isArray(d.permissions)) parts.push(`permissions: ${(d.permissions as string[]).join(', ') || 'none'}`);
  if (text('rating')) parts.push(text('rating')!);
  if (text('verdict')) parts.push(`verdict ${text('verdict')}`);
  if (typeof d.images === 'number') parts.push(`${d.images} image${d.images === 1 ? '' : 's'}`);
  const reasons: Record<string, string> = {
    credentials: 'wrong password',
    unverified: 'e-mail address not verified',
    mfa_code: 'wrong authenticator code',
  };
  if (text('reason')) parts.push(reasons[text('reason')!] ?? text('reason')!);
  if (text('mfa') === 'totp') parts.push('with an authenticator code');
  if (text('mfa') === 'recovery') parts.push('with a recovery code');
  return parts.join('; ');
}

/** The filter form: who, what, and a range of days; applying it reloads the log from its first page. */
function Filters({ workspaceId, members }: { workspaceId: string; members: readonly MemberItem[] }) {
  const applied = useStore($auditFilters);
  const actors = useStore($auditActors);
  const [form, setForm] = useState<AuditFilterForm>(applied);
  const set = (patch: Partial<AuditFilterForm>) => setForm((f) => ({ ...f, ...patch }));
  const rangeBackwards = Boolean(form.from && form.to && form.from > form.to);
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!rangeBackwards) void loadAuditLog(workspaceId, form);
  };
  return (
    <form className="audit-filters" role="search" aria-label="Filter the audit log" onSubmit={onSubmit}>
      <div className="dash-field">
        <label htmlFor="audit-actor">Who</label>
        <select id="audit-actor" value={form.actor} onChange={(e) => set({ actor: e.target.value })}>
          <option value="">Everyone</option>
          {actors.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.email}){members.some((m) => m.user_id === a.id) ? '' : ', former member'}
            </option>
          ))}
        </select>
      </div>
      <div className="dash-field">
        <label htmlFor="audit-kind">What</label>
        <select id="audit-kind" value={form.kind} onChange={(e) => set({ kind: e.target.value as AuditKind | '' })}>
          <option value="">Everything</option>
          {auditKinds.map((kind) => (
            <option key={kind} value={kind}>
              {AUDIT_KINDS[kind].label}
            </option>
          ))}
        </select>
      </div>
      <div className="dash-field">
        <label htmlFor="audit-from">From (day)</label>
        <input id="audit-from" type="date" value={form.from} onChange={(e) => set({ from: e.target.value })} />
      </div>
      <div className="dash-field">
        <label htmlFor="audit-to">To (day, included)</label>
        <input
          id="audit-to"
          type="date"
          value={form.to}
          aria-invalid={rangeBackwards}
          aria-describedby={rangeBackwards ? 'audit-range-error' : undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </div>
      <div className="dash-form-actions audit-filter-actions">
        <button type="submit" className="dash-primary" disabled={rangeBackwards}>
          Apply filters
        </button>
        <button
          type="button"
          className="dash-quiet"
          onClick={() => {
            setForm(NO_AUDIT_FILTERS);
            void loadAuditLog(workspaceId, NO_AUDIT_FILTERS);
          }}
        >
          Clear filters
        </button>
      </div>
      {rangeBackwards ? (
        <p id="audit-range-error" className="dash-error audit-range-error">
          The first day comes after the last one.
        </p>
      ) : null}
    </form>
  );
}

/** /dashboard/audit: the current workspace's audit log, for its admins, with filters and a CSV export. */
export default function AuditLogView() {
  const current = useStore($currentWorkspace);
  const log = useStore($auditLog);
  const members = useStore($members);
  const [exportNote, setExportNote] = useState<{ ok: boolean; text: string }>({ ok: true, text: '' });
  const [exporting, setExporting] = useState(false);
  const tableRegion = useRef<HTMLDivElement>(null);
  const workspaceId = current?.id;
  const isAdmin = current?.role === 'admin';

  useEffect(() => {
    if (!workspaceId || !isAdmin) return;
    void loadMembers(workspaceId);
    void loadAuditActors(workspaceId);
    void loadAuditLog(workspaceId, NO_AUDIT_FILTERS);
  }, [workspaceId, isAdmin]);

  if (!current) return <p role="status">Loading workspace...</p>;
  const memberList = members.status === 'ready' ? members.items : [];

  const onExport = async () => {
    setExporting(true);
    setExportNote({ ok: true, text: '' });
    try {
      setExportNote({ ok: true, text: `Downloaded ${await exportAuditCsv(current.id)}.` });
    } catch (error) {
      setExportNote({ ok: false, text: (error as Error).message });
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-labelledby="audit-title" className="dash-section">
      <h1 id="audit-title">Audit log</h1>
      {!isAdmin ? (
        <p>
          Only the admins of <strong>{current.name}</strong> see its audit log.{' '}
          <a href="/dashboard/workspace">Back to the workspace</a>
        </p>
      ) : (
        <>
          <p>
            Who did what in <strong>{current.name}</strong>, newest first: members&apos; sign-ins, uploads, downloads,
            deletions, share links, quality checks, ratings, and changes to members and roles. Times are shown in your
            time zone; the CSV export gives them in UTC.
          </p>
          <Filters key={current.id} workspaceId={current.id} members={memberList} />
          <div className="dash-form-actions audit-export">
            <button type="button" onClick={onExport} disabled={exporting || log.status !== 'ready'}>
              {exporting ? 'Exporting...' : 'Export CSV'}
            </button>
            <span role="status" className={exportNote.ok ? 'dash-ok' : 'dash-error'}>
              {exportNote.text}
            </span>
          </div>
          <div role="status" className="audit-count">
            {log.status === 'loading' ? 'Loading the audit log...' : null}
            {log.status === 'ready' && log.items.length === 0 ? 'No events match these filters.' : null}
            {log.status === 'ready' && log.items.length > 0
              ? `Showing ${log.items.length} event${log.items.length === 1 ? '' : 's'}${log.next ? '; more are older' : ''}.`
              : null}
          </div>
          {log.status === 'failed' ? <p className="dash-error">{log.message}</p> : null}
          {log.status === 'ready' && log.items.length > 0 ? (
            <>
              <div
                className="audit-table-wrap"
                role="region"
                aria-labelledby="audit-caption"
                tabIndex={0}
                ref={tableRegion}
              >
                <table className="dash-table audit-table">
                  <caption id="audit-caption" className="visually-hidden">
                    Audit log of {current.name}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Who</th>
                      <th scope="col">What</th>
                      <th scope="col">Details</th>
                      <th scope="col">IP address</th>
                    </tr>
                  </thead>
                  <tbody>
                    {log.items.map((item) => (
                      <tr key={item.id}>
                        <td>
                          <DateTime at={item.at} />
                        </td>
                        <td>
                          {item.actor ? (
                            item.actor.name
                          ) : (
                            <span className="dash-muted">
                              {item.action === 'share_link.download'
                                ? 'Someone with a share link'
                                : 'A deleted account'}
                            </span>
                          )}
                        </td>
                        <td>{item.label}</td>
                        <td>{describe(item, memberList)}</td>
                        <td>{item.ip ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {log.error ? <p className="dash-error">{log.error}</p> : null}
              {log.next ? (
                <button
                  type="button"
                  className="dash-quiet"
                  disabled={log.loadingMore}
                  onClick={async () => {
                    await loadMoreAudit(current.id);
                    // The button goes with the last page: focus moves to the table rather than to nowhere.
                    const after = $auditLog.get();
                    if (after.status === 'ready' && !after.next) tableRegion.current?.focus();
                  }}
                >
                  {log.loadingMore ? 'Loading...' : 'Show older events'}
                </button>
              ) : null}
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
