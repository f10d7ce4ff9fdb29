import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { $reviewSettings, saveReviewSettings } from '../../../stores/review-settings.ts';
import { $currentWorkspace, $members, loadMembers } from '../../../stores/workspaces.ts';

/** An admin's review settings: blind double reads, the artefact tags and who decides at tier 2. */
export default function ReviewSettingsPanel() {
  const settings = useStore($reviewSettings);
  const workspace = useStore($currentWorkspace);
  const members = useStore($members);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const workspaceId = workspace?.id;

  useEffect(() => {
    if (workspaceId) void loadMembers(workspaceId);
  }, [workspaceId]);

  if (!settings || workspace?.role !== 'admin') return null;

  const report = (error: string | undefined, ok: string) =>
    setMessage(error ? { ok: false, text: error } : { ok: true, text: ok });
  const toggleTier2 = async (userId: string, on: boolean) => {
    const ids = on ? [...settings.tier2_user_ids, userId] : settings.tier2_user_ids.filter((id) => id !== userId);
    report(await saveReviewSettings({ tier2_user_ids: ids }), 'Tier-2 reviewers saved.');
  };
  const raters = members.status === 'ready' ? members.items.filter((m) => m.role !== 'viewer') : [];

  return (
    <section aria-labelledby="review-settings-title" className="review-settings">
      <h2 id="review-settings-title">Review settings</h2>
      <label className="dash-check">
        <input
          type="checkbox"
          checked={settings.blind}
          onChange={async (event) =>
            report(
              await saveReviewSettings({ blind: event.target.checked }),
              event.target.checked ? 'Blind reads are on.' : 'Blind reads are off.',
            )
          }
        />
        Blind double reads: a rater sees the others&apos; ratings of an image only after rating it
      </label>
      <fieldset>
        <legend>Tier-2 reviewers (their decision is final)</legend>
        {raters.map((member) => (
          <label key={member.user_id} className="dash-check">
            <input
              type="checkbox"
              checked={settings.tier2_user_ids.includes(member.user_id)}
              onChange={(event) => void toggleTier2(member.user_id, event.target.checked)}
            />
            {member.name} ({member.role})
          </label>
        ))}
      </fieldset>
      <TagsForm
        key={settings.artefact_tags.join('\n')}
        initial={settings.artefact_tags}
        onSave={async (tags) => report(await saveReviewSettings({ artefact_tags: tags }), 'Artefact tags saved.')}
      />
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? 'dash-ok' : 'dash-error'}>
          {message.text}
        </p>
      )}
    </section>
  );
}

/** The artefact tags as text, one per line; starts again from the saved list whenever that changes. */
function TagsForm({ initial, onSave }: { initial: string[]; onSave: (tags: string[]) => Promise<void> }) {
  const [text, setText] = useState(initial.join('\n'));
  const save = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void onSave(
      text
        .split('\n')
        .map((t) => t.trim())
        .filter(Boolean),
    );
  };
  return (
    <form onSubmit={save} className="dash-form">
      <div className="dash-field">
        <label htmlFor="review-tags">Artefact tags, one per line</label>
        <textarea id="review-tags" rows={6} value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      <button type="submit">Save tags</button>
    </form>
  );
}
