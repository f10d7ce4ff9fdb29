import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { normalizeEmail } from '../../../contract/auth.ts';
import { DATE_FORMATS, isDateFormat } from '../../lib/date-format.ts';
import MfaSection from './MfaSection.tsx';
import { $accountNotice, confirmEmailChange, loadDatePreferences, saveAccountSettings } from '../../stores/account.ts';
import { $userEmail, $userName } from '../../stores/session.ts';
import { $settings, $settingsSaved, settingsEdited, TIMEZONES, type DashboardSettings } from '../../stores/settings.ts';

// Read once when the view opens: the confirmation link mailed to a new address lands here.
const emailTokenInUrl = () => new URLSearchParams(window.location.search).get('email_token');

/**
 * /dashboard/settings: the name (saved to the profile), the sign-in address (changed through a link
 * mailed to the new one), time zone and date format for every date shown, and MFA. Save shows 'Saved'.
 */
export default function SettingsView() {
  const saved = useStore($settings);
  const savedFlag = useStore($settingsSaved);
  const notice = useStore($accountNotice);
  const userName = useStore($userName);
  const userEmail = useStore($userEmail) ?? '';
  const [form, setForm] = useState<DashboardSettings>(() => ({
    ...saved,
    fullName: userName || saved.fullName || '',
    email: userEmail,
  }));
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const emailChanged = normalizeEmail(form.email) !== normalizeEmail(userEmail);
  const datesEdited = useRef(false);
  const set = <K extends keyof DashboardSettings>(key: K, value: DashboardSettings[K]) => {
    if (key === 'timezone' || key === 'dateFormat') datesEdited.current = true;
    settingsEdited();
    setForm({ ...form, [key]: value });
  };
  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setBusy(true);
    if (await saveAccountSettings(form, password)) {
      setForm((current) => ({ ...current, email: $userEmail.get() ?? '' }));
      setPassword('');
    }
    setBusy(false);
  };

  useEffect(() => {
    // The server's time zone and date format may differ from this browser's: the form shows the server's.
    // A choice made before the answer arrives wins over it.
    void loadDatePreferences().then(() => {
      if (datesEdited.current) return;
      const { timezone, dateFormat } = $settings.get();
      setForm((current) => ({ ...current, timezone, dateFormat }));
    });
    const token = emailTokenInUrl();
    $accountNotice.set(undefined);
    if (!token) return;
    // The token leaves the address bar (and the history) whatever the outcome: it is single use anyway.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    void confirmEmailChange(token).then(() => setForm((current) => ({ ...current, email: $userEmail.get() ?? '' })));
  }, []);

  return (
    <section aria-labelledby="settings-title" className="dash-section">
      <h1 id="settings-title">Settings</h1>
      <form className="dash-form" onSubmit={submit}>
        <div className="dash-field">
          <label htmlFor="settings-fullName">Full name</label>
          <input
            id="settings-fullName"
            name="fullName"
            value={form.fullName}
            onChange={(e) => set('fullName', e.target.value)}
          />
        </div>
        <div className="dash-field">
          <label htmlFor="settings-email">Email</label>
          <input
            id="settings-email"
            name="email"
            type="email"
            value={form.email}
            onChange={(e) => set('email', e.target.value)}
            aria-describedby="settings-email-hint"
          />
          <p id="settings-email-hint" className="dash-muted">
            To change it, we send a link to the new address; the change is made when you open it.
          </p>
        </div>
        {emailChanged && (
          <div className="dash-field">
            <label htmlFor="settings-password">Current password</label>
            <input
              id="settings-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              maxLength={256}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
        )}
        <div className="dash-field">
          <label htmlFor="settings-timezone">Timezone</label>
          <select
            id="settings-timezone"
            name="timezone"
            value={form.timezone}
            onChange={(e) => set('timezone', e.target.value as DashboardSettings['timezone'])}
          >
            {TIMEZONES.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </div>
        <div className="dash-field">
          <label htmlFor="settings-dateFormat">Date format</label>
          <select
            id="settings-dateFormat"
            name="dateFormat"
            value={form.dateFormat}
            onChange={(e) => isDateFormat(e.target.value) && set('dateFormat', e.target.value)}
          >
            {Object.entries(DATE_FORMATS).map(([format, label]) => (
              <option key={format} value={format}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="dash-check">
          <input
            id="settings-emailSummaries"
            name="emailSummaries"
            type="checkbox"
            checked={form.emailSummaries}
            onChange={(e) => set('emailSummaries', e.target.checked)}
          />
          <label htmlFor="settings-emailSummaries">Send me email summaries</label>
        </div>
        <div className="dash-form-actions">
          <button type="submit" className="dash-primary" disabled={busy}>
            Save
          </button>
          <span role="status" className="dash-ok">
            {savedFlag ? 'Saved' : ''}
          </span>
        </div>
        <p
          role={notice?.kind === 'error' ? 'alert' : 'status'}
          className={notice?.kind === 'error' ? 'dash-error' : 'dash-ok'}
        >
          {notice?.text ?? ''}
        </p>
      </form>
      <MfaSection />
    </section>
  );
}
