import { MODEL_COLUMNS, VERDICT_LABEL, type AnalysisModel, type AnalysisRow } from '../../../lib/analysis-models.ts';
import { analysisCsvText } from '../../../stores/analysis.ts';

function download(): void {
  const url = URL.createObjectURL(new Blob([analysisCsvText()], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'lumenqc-analysis.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Pass/Review/Fail table of a run, with the chosen model's measurements and a CSV export. */
export default function AnalysisResults({ model, rows }: { model: AnalysisModel; rows: AnalysisRow[] }) {
  const columns = MODEL_COLUMNS[model];
  const count = (verdict: string) => rows.filter((row) => row.verdict === verdict).length;
  return (
    <>
      <h2>Results</h2>
      <ul className="analysis-summary" aria-label="Verdict counts">
        <li>
          <span className="imaging-verdict imaging-verdict-pass">Pass</span> {count('pass')}
        </li>
        <li>
          <span className="imaging-verdict imaging-verdict-review">Review</span> {count('review')}
        </li>
        <li>
          <span className="imaging-verdict imaging-verdict-fail">Fail</span> {count('fail')}
        </li>
      </ul>
      <div className="analysis-table-wrap" role="region" aria-label="Results table" tabIndex={0}>
        <table className="analysis-table">
          <caption className="dash-muted">{model}: measurements of each image</caption>
          <thead>
            <tr>
              <th scope="col">Image</th>
              <th scope="col">Verdict</th>
              <th scope="col">Confidence</th>
              {columns.map((column) => (
                <th scope="col" key={column.label}>
                  {column.label}
                </th>
              ))}
              <th scope="col">Issues</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.storedFilename}>
                <th scope="row">{row.name}</th>
                <td>
                  {row.verdict ? (
                    <span className={`imaging-verdict imaging-verdict-${row.verdict}`}>
                      {VERDICT_LABEL[row.verdict]}
                    </span>
                  ) : (
                    'Error'
                  )}
                </td>
                <td>{row.confidence ?? '—'}</td>
                {columns.map((column) => (
                  <td key={column.label}>{row.metrics ? column.format(column.value(row.metrics)) : '—'}</td>
                ))}
                <td>{row.error ?? (row.issues.length ? row.issues.join('; ') : 'None')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" className="dash-quiet" onClick={download}>
        Export CSV
      </button>
    </>
  );
}
