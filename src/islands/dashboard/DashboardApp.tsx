import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { $router, trackDashboardPageViews } from '../../stores/router.ts';
import { $workspaceId } from '../../stores/workspace-choice.ts';
import { loadWorkspaces } from '../../stores/workspaces.ts';
import { loadDatePreferences } from '../../stores/account.ts';
import AnalysisView from './analysis/AnalysisView.tsx';
import AuditLogView from './audit/AuditLogView.tsx';
import DashboardHeader from './DashboardHeader.tsx';
import ImagesView from './ImagesView.tsx';
import NotFoundView from './NotFoundView.tsx';
import OverviewView from './OverviewView.tsx';
import ProfileView from './ProfileView.tsx';
import ReviewView from './review/ReviewView.tsx';
import SettingsView from './SettingsView.tsx';
import WorkspaceView from './WorkspaceView.tsx';
import './dashboard.css';

// The molecule viewer brings 3Dmol.js: its chunk loads only when that route opens.
const ModelViewerPage = lazy(() => import('../viewers/molecule/ModelViewerPage.tsx'));

function CurrentView() {
  const page = useStore($router);
  switch (page?.route) {
    case 'overview':
      return <OverviewView />;
    case 'images':
      return <ImagesView />;
    case 'analysis':
      return <AnalysisView />;
    case 'modelViewer':
      return (
        <Suspense fallback={<p role="status">Loading 3D viewer...</p>}>
          <ModelViewerPage />
        </Suspense>
      );
    case 'settings':
      return <SettingsView />;
    case 'profile':
      return <ProfileView />;
    case 'workspace':
      return <WorkspaceView />;
    case 'review':
      return <ReviewView />;
    case 'audit':
      return <AuditLogView />;
    default:
      return <NotFoundView />;
  }
}

/** The signed-in dashboard: header, then the view of the current /dashboard/* route. */
export default function DashboardApp() {
  const page = useStore($router);
  const workspaceId = useStore($workspaceId);
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  useEffect(() => trackDashboardPageViews(), []);
  useEffect(() => void loadWorkspaces(), []);
  useEffect(() => void loadDatePreferences(), []);

  // After an in-app navigation, focus moves to the new view so screen readers announce it.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.focus();
  }, [page?.path]);

  return (
    <div className="dash">
      <a className="dash-skip" href="#dash-main">
        Skip to content
      </a>
      <DashboardHeader />
      <main id="dash-main" className="dash-main" ref={main} tabIndex={-1}>
        {/* Keyed by workspace: switching remounts the view, which loads the new workspace's data. */}
        <CurrentView key={workspaceId ?? 'personal'} />
      </main>
    </div>
  );
}
