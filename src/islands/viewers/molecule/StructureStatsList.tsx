import { useStore } from '@nanostores/react';
import { $moleculeModel } from '../../../stores/molecule-viewer.ts';

/** The figures counted from the structure file on screen. */
export default function StructureStatsList() {
  const model = useStore($moleculeModel);
  if (model.status !== 'loaded') return null;
  const { stats, entry } = model;
  const rows: [string, string | number][] =
    entry.format === 'pdb'
      ? [
          ['Atoms', stats.atoms],
          ['Residues', stats.residues],
          ['Chains', stats.chains],
          ['Helices', stats.helices],
          ['Strands', stats.strands],
          ['Formula', stats.formula],
        ]
      : [
          ['Atoms', stats.atoms],
          ['Formula', stats.formula],
        ];
  return (
    <section className="mv-stats" aria-labelledby="mv-stats-title">
      <h2 id="mv-stats-title">Structure</h2>
      <dl>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd data-stat={term.toLowerCase()}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
