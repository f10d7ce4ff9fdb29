import { useStore } from '@nanostores/react';
import type { MouseEvent } from 'react';
import { modelViewerLink, STRUCTURES } from '../../../lib/structure-catalog.ts';
import { $moleculeRequest, openModel } from '../../../stores/molecule-viewer.ts';

/** Every model as a link; the one on screen carries the 'Active' label. */
export default function RelatedModels() {
  const request = useStore($moleculeRequest);
  const open = (id: string, type: string) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return; // new tab: let the browser do it
    event.preventDefault();
    openModel(id, type);
  };
  return (
    <nav className="mv-related" aria-labelledby="mv-related-title">
      <h2 id="mv-related-title">Related models</h2>
      <ul>
        {STRUCTURES.map((s) => {
          const active = s.id === request.id && s.type === request.type;
          return (
            <li key={s.id} className={active ? 'active' : undefined}>
              <a
                href={modelViewerLink('', s.id, s.type)}
                aria-current={active ? 'page' : undefined}
                onClick={open(s.id, s.type)}
              >
                <span className="mv-related-name">{s.name}</span>
                <span className="mv-related-meta">
                  {s.id} · {s.type}
                </span>
              </a>
              {active && <span className="mv-active">Active</span>}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
