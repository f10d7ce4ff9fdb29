import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { DeidentificationReportBody } from '../../../contract/deidentification.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { $currentWorkspace } from '../../stores/workspaces.ts';
import BlankingEditor from './BlankingEditor.tsx';
import ConfirmCleanForm from './ConfirmCleanForm.tsx';
import DateTime from './DateTime.tsx';

type State =
  { status: 'loading' } | { status: 'ready'; report: DeidentificationReportBody } | { status: 'none'; message: string };

const BURNED_IN: Record<DeidentificationReportBody['burned_in_text'], string> = {
  'not-checked': 'Not checked',
  'none-found': 'None found',
  blanked: 'Found and blanked',
  'not-cleanable': 'Found, could not be blanked',
  'not-checkable': 'Could not be checked',
};

function AttributeList({ title, items }: { title: string; items: DeidentificationReportBody['removed'] }) {
  if (items.length === 0) return null;
  return (
    <details className="dash-deid-list">
      <summary>
        {title} ({items.length})
      </summary>
      {/* Long lists scroll in their own box, which keyboard users reach by Tab. */}
      <ul tabIndex={0} aria-label={title}>
        {items.map((a) => (
          <li key={a.tag}>
            <code>{a.tag}</code> {a.name}
            {a.count > 1 && ` ×${a.count}`}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** What de-identifying a DICOM upload did: the profile, and every attribute removed, emptied, replaced or remapped. */
export default function DeidentificationPanel({ item }: { item: UploadItem }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const workspace = useStore($currentWorkspace);
  // Changing the library is for admins and members; reviewers and viewers read the report only.
  const mayBlank = workspace === undefined || workspace.role === 'admin' || workspace.role === 'member';
  useEffect(() => {
    // A new image mounts a new panel (keyed by its name), so the state starts as loading.
    let current = true;
    api
      .get(`/uploads/${encodeURIComponent(item.stored_filename)}/deidentification`)
      .json<DeidentificationReportBody>()
      .then((report) => current && setState({ status: 'ready', report }))
      .catch(
        (error: unknown) =>
          current && setState({ status: 'none', message: errorMessage(error, 'The report could not be loaded') }),
      );
    return () => {
      current = false;
    };
  }, [item.stored_filename]);

  if (item.extension !== '.dcm') return null;
  return (
    <section className="dash-deid" aria-labelledby="deid-title">
      <h3 id="deid-title">De-identification report</h3>
      {state.status === 'loading' && <p role="status">Loading the report...</p>}
      {state.status === 'none' && <p className="dash-muted">{state.message}</p>}
      {state.status === 'ready' && (
        <>
          <dl className="dash-metadata" data-testid="deidentification-report">
            <dt>Profile</dt>
            <dd>{state.report.profile}</dd>
            {state.report.iod && (
              <>
                <dt>IOD</dt>
                <dd>{state.report.iod}</dd>
              </>
            )}
            <dt>Removed</dt>
            <dd>{state.report.removed.length}</dd>
            <dt>Emptied</dt>
            <dd>{state.report.emptied.length}</dd>
            <dt>Replaced</dt>
            <dd>{state.report.replaced.length}</dd>
            <dt>UIDs remapped</dt>
            <dd>{state.report.uids_remapped}</dd>
            <dt>Private tags dropped</dt>
            <dd>{state.report.private_tags_dropped}</dd>
            <dt>Burned-in text</dt>
            <dd>
              {BURNED_IN[state.report.burned_in_text]}
              {state.report.burned_in_reason && ` (${state.report.burned_in_reason})`}
            </dd>
            <dt>Regions blanked by hand</dt>
            <dd>{state.report.blanked_regions.length}</dd>
            {state.report.confirmed_clean && (
              <>
                <dt>Confirmed free of burned-in text</dt>
                <dd>
                  By {state.report.confirmed_clean.by} (<DateTime at={state.report.confirmed_clean.at} />
                  ); Burned In Annotation set to NO
                </dd>
              </>
            )}
            {state.report.pixel_data_decompressed && (
              <>
                <dt>Pixel data</dt>
                <dd>Decompressed to be blanked (stored as Explicit VR Little Endian)</dd>
              </>
            )}
          </dl>
          <AttributeList title="Removed attributes" items={state.report.removed} />
          <AttributeList title="Emptied attributes" items={state.report.emptied} />
          <AttributeList title="Replaced attributes" items={state.report.replaced} />
          <AttributeList title="Attributes with remapped UIDs" items={state.report.uid_attributes} />
          {state.report.blanked_regions.length > 0 && (
            <details className="dash-deid-list">
              <summary>Regions blanked by hand ({state.report.blanked_regions.length})</summary>
              <ul tabIndex={0} aria-label="Regions blanked by hand" data-testid="blanked-regions">
                {state.report.blanked_regions.map((r, i) => (
                  <li key={i}>
                    Left {r.x}, top {r.y}, {r.width} × {r.height} pixels, in every frame (
                    <DateTime at={r.blanked_at} />)
                  </li>
                ))}
              </ul>
            </details>
          )}
          {mayBlank && (
            <section aria-labelledby="blanking-title">
              <h4 id="blanking-title">Blank regions</h4>
              <BlankingEditor item={item} onBlanked={(report) => setState({ status: 'ready', report })} />
            </section>
          )}
          {/* A flagged image is called de-identified only when a member says so after blanking by hand. */}
          {mayBlank &&
            item.identifiable &&
            state.report.blanked_regions.length > 0 &&
            !state.report.confirmed_clean && (
              <ConfirmCleanForm item={item} onConfirmed={(report) => setState({ status: 'ready', report })} />
            )}
        </>
      )}
    </section>
  );
}
