import { useStore } from '@nanostores/react';
import { $currentWorkspace, $workspaces, switchWorkspace } from '../../stores/workspaces.ts';
import './workspace.css';

/** The header's workspace switcher: the library, Overview and Analysis show the one chosen here. */
export default function WorkspaceSwitcher() {
  const state = useStore($workspaces);
  const current = useStore($currentWorkspace);
  if (state.status !== 'ready') return null;
  return (
    <div className="dash-workspace">
      <label htmlFor="dash-workspace-select">Workspace</label>
      <select
        id="dash-workspace-select"
        value={current?.id ?? ''}
        onChange={(event) => switchWorkspace(event.target.value)}
      >
        {state.items.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
      <a href="/dashboard/workspace">Manage</a>
      <a href="/dashboard/review">Review</a>
    </div>
  );
}
