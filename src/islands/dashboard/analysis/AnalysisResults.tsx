import type { QcBatchResult } from '../../../../contract/qc-batch.ts';
import { csvFileName, SET_COLUMNS, VERDICT_LABEL, type MetricSet } from '../../../lib/analysis-models.ts';
import { analysisCsvText } from '../../../stores/analysis.ts';

function download(): void {
  const url = URL.createObjectURL(new Blob([analysisCsvText()], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = csvFileName(new Date());
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The Pass/Review/Fail table of a batch, with the chosen metric set's measurements and a CSV export. */
export default function AnalysisResults({ set, rows }: { set: MetricSet; rows: QcBatchResult[] }) {
  const columns = SET_COLUMNS[set];
  return (
    <>
      <h2>Results</h2>
      <div className="analysis-table-wrap" role="region" aria-label="Results table" tabIndex={0}>
        <table className="analysis-table">
          <caption className="dash-muted">{set}: measurements of each image</caption>
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
              <tr key={row.stored_filename}>
                <th scope="row">{row.name}</th>
                <td>
                  {row.verdict ? (
                    <span className={`imaging-verdict imaging-verdict-${row.verdict}`}>
                      {VERDICT_LABEL[row.verdict]}
                    </span>
                  ) : row.status === 'pending' ? (
                    'Not checked'
                  ) : (
                    'Error'
                  )}
                </td>
                <td>{row.confidence ?? '—'}</td>
                {columns.map((column) => {
                  const value = row.metrics ? column.read(row.metrics) : undefined;
                  return <td key={column.label}>{value === undefined ? '—' : column.format(value)}</td>;
                })}
                <td>{row.error ?? (row.issues.length ? row.issues.join('; ') : row.verdict ? 'None' : '—')}</td>
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
