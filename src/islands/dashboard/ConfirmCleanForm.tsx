import { useState } from 'react';
import type { DeidentificationReportBody } from '../../../contract/deidentification.ts';
import type { UploadItem } from '../../../contract/uploads.ts';
import { confirmClean } from '../../stores/blanking.ts';
import { noteConfirmedClean } from '../../stores/library.ts';

/**
 * The deliberate step after blanking by hand: a member states that no other burned-in text remains, and only then
 * does the server set Burned In Annotation to NO and stop flagging the image. Blanking alone never does.
 */
export default function ConfirmCleanForm({
  item,
  onConfirmed,
}: {
  item: UploadItem;
  onConfirmed: (report: DeidentificationReportBody) => void;
}) {
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function submit() {
    if (!checked || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      const outcome = await confirmClean(item.stored_filename);
      if ('error' in outcome) {
        setError(outcome.error);
        return;
      }
      noteConfirmedClean(item.stored_filename);
      onConfirmed(outcome.report);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      aria-labelledby="confirm-clean-title"
    >
      <h4 id="confirm-clean-title">Confirm no burned-in text remains</h4>
      <p>
        Blanking by hand does not mark the image de-identified. Look through every frame; once no text that could
        identify the patient is left, confirm it: Burned In Annotation is set to NO in the stored file, the image is no
        longer flagged, and the report records who confirmed it and when.
      </p>
      <label>
        <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> No other burned-in
        text remains in any frame of this image
      </label>{' '}
      <button type="submit" disabled={!checked || busy}>
        {busy ? 'Confirming...' : 'Confirm de-identified'}
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
