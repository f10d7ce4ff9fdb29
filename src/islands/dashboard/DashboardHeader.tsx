import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { site } from '../../site.ts';
import { $router, dashboardLinks } from '../../stores/router.ts';
import UserMenu from './UserMenu.tsx';
import WorkspaceSwitcher from './WorkspaceSwitcher.tsx';

/** The dashboard's header: brand, the five section links, the workspace switcher and the user menu. */
export default function DashboardHeader() {
  const page = useStore($router);
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <header className="dash-header">
      <a className="dash-brand" href="/">
        {site.name}
      </a>
      <button
        type="button"
        className="dash-nav-toggle"
        aria-expanded={menuOpen}
        aria-controls="dash-nav"
        onClick={() => setMenuOpen(!menuOpen)}
      >
        Menu
      </button>
      <nav id="dash-nav" aria-label="Dashboard" className={menuOpen ? 'dash-nav open' : 'dash-nav'}>
        <ul>
          {dashboardLinks.map((link) => (
            <li key={link.route}>
              <a
                href={link.href}
                aria-current={page?.route === link.route ? 'page' : undefined}
                onClick={() => setMenuOpen(false)}
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <WorkspaceSwitcher />
      <UserMenu />
    </header>
  );
}
