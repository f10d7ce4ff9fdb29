import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { signOut } from '../../stores/auth.ts';
import { $userName } from '../../stores/session.ts';

/**
 * The user menu (Profile, Sign Out) as a menu button: Enter, Space or ArrowDown open it on the first
 * item, arrows move, Escape closes and returns focus to the button.
 */
export default function UserMenu() {
  const name = useStore($userName);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.parentElement?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const onMenuKey = (event: KeyboardEvent) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      list[(index + step + list.length) % list.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const onSignOut = async () => {
    setOpen(false);
    await signOut();
    window.location.assign('/login');
  };

  return (
    <div className="dash-user">
      <button
        ref={button}
        type="button"
        className="dash-user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="dash-user-menu"
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {name || 'Account'}
      </button>
      <ul id="dash-user-menu" ref={menu} role="menu" aria-label="Account" hidden={!open} onKeyDown={onMenuKey}>
        <li role="none">
          <a role="menuitem" href="/dashboard/profile" onClick={() => setOpen(false)}>
            Profile
          </a>
        </li>
        <li role="none">
          <button role="menuitem" type="button" onClick={() => void onSignOut()}>
            Sign Out
          </button>
        </li>
      </ul>
    </div>
  );
}
