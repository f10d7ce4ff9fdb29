import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import type { AgreementReport } from '../../../../contract/reviews.ts';
import { $agreement, loadAgreement } from '../../../stores/review-settings.ts';

const figure = (value: number | null) => (value === null ? 'undefined' : value.toFixed(2));

/** One bar of the chart: a figure between −1 and 1 with its label. */
interface Bar {
  label: string;
  value: number | null;
}

/**
 * A small bar chart of agreement figures from −1 to 1. Drawn as plain SVG: the project has no chart
 * library, and a handful of bars does not warrant one.
 */
function AgreementChart({ bars }: { bars: Bar[] }) {
  const rowHeight = 22;
  const labelWidth = 180;
  const plot = 240;
  const zero = labelWidth + plot / 2;
  const height = bars.length * rowHeight + 24;
  return (
    <svg
      className="review-chart"
      viewBox={`0 0 ${labelWidth + plot + 80} ${height}`}
      role="img"
      aria-label="Bar chart of the agreement figures in the table above, from −1 to 1"
    >
      <line x1={zero} x2={zero} y1={0} y2={height - 18} className="review-chart-axis" />
      <text x={labelWidth} y={height - 4} className="review-chart-tick">
        −1
      </text>
      <text x={zero - 4} y={height - 4} className="review-chart-tick">
        0
      </text>
      <text x={labelWidth + plot - 8} y={height - 4} className="review-chart-tick">
        1
      </text>
      {bars.map((bar, i) => {
        const y = i * rowHeight + 4;
        const value = bar.value ?? 0;
        const width = (Math.abs(value) * plot) / 2;
        return (
          <g key={bar.label}>
            <text x={labelWidth - 6} y={y + 13} textAnchor="end" className="review-chart-label">
              {bar.label.length > 26 ? `${bar.label.slice(0, 25)}…` : bar.label}
            </text>
            {bar.value !== null && (
              <rect
                x={value >= 0 ? zero : zero - width}
                y={y + 2}
                width={Math.max(width, 1)}
                height={rowHeight - 8}
                className={value >= 0 ? 'review-chart-bar' : 'review-chart-bar review-chart-negative'}
              />
            )}
            <text x={labelWidth + plot + 6} y={y + 13} className="review-chart-label">
              {figure(bar.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function barsOf(report: AgreementReport, nameOf: (id: string) => string): Bar[] {
  return [
    ...report.pairs.map((p) => ({ label: `${nameOf(p.rater_a)} – ${nameOf(p.rater_b)}`, value: p.kappa })),
    { label: 'Workspace (alpha)', value: report.workspace.alpha },
    { label: 'QC engine vs humans', value: report.engine.kappa },
  ];
}

/** Agreement between raters: Cohen's kappa per pair, Krippendorff's alpha, and the engine against humans. */
export default function AgreementPanel() {
  const state = useStore($agreement);
  useEffect(() => void loadAgreement(), []);
  if (state.status === 'loading') return <p role="status">Loading agreement...</p>;
  if (state.status === 'failed')
    return (
      <p role="alert" className="dash-error">
        {state.message}
      </p>
    );
  const report = state.report;
  const names = new Map(report.raters.map((r) => [r.user_id, r.name]));
  const nameOf = (id: string) => names.get(id) ?? 'Former member';
  return (
    <div className="review-agreement">
      <table className="dash-table">
        <caption>Agreement between raters</caption>
        <thead>
          <tr>
            <th scope="col">Between</th>
            <th scope="col">Measure</th>
            <th scope="col">Images</th>
            <th scope="col">Rated alike</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {report.pairs.map((p) => (
            <tr key={`${p.rater_a}-${p.rater_b}`}>
              <th scope="row">
                {nameOf(p.rater_a)} and {nameOf(p.rater_b)}
              </th>
              <td>Cohen&apos;s kappa</td>
              <td>{p.n}</td>
              <td>{Math.round(p.observed * 100)}%</td>
              <td>{figure(p.kappa)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">All raters ({report.raters.length})</th>
            <td>Krippendorff&apos;s alpha (nominal)</td>
            <td>{report.workspace.units}</td>
            <td>{report.workspace.values} ratings</td>
            <td>{figure(report.workspace.alpha)}</td>
          </tr>
          <tr>
            <th scope="row">QC engine and human decisions</th>
            <td>Cohen&apos;s kappa</td>
            <td>{report.engine.n}</td>
            <td>{report.engine.n > 0 ? `${Math.round(report.engine.observed * 100)}%` : '—'}</td>
            <td>{figure(report.engine.kappa)}</td>
          </tr>
        </tbody>
      </table>
      <AgreementChart bars={barsOf(report, nameOf)} />
      <p className="dash-muted">
        Undefined: no image in common, or every rating in one category. The engine&apos;s Pass, Review and Fail count as
        usable, questionable and unusable.
      </p>
    </div>
  );
}
