import type { QcVerdict } from '../../../contract/qc.ts';
import { VERDICT_LABEL } from '../../lib/analysis-models.ts';

/** The verdict of an image's latest quality check, in words and colour; 'Not checked' when it has none. */
export default function QcVerdictBadge({ verdict }: { verdict: QcVerdict | undefined }) {
  if (!verdict) return <span className="dash-badge dash-badge-neutral">Not checked</span>;
  return <span className={`dash-badge dash-verdict-${verdict}`}>QC {VERDICT_LABEL[verdict]}</span>;
}
