import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { DATE_FORMATS, isDateFormat } from '../../lib/date-format.ts';
import MfaSection from './MfaSection.tsx';
import { $userEmail, $userName } from '../../stores/session.ts';
import {
  $settings,
  $settingsSaved,
  saveSettings,
  settingsEdited,
  TIMEZONES,
  type DashboardSettings,
} from '../../stores/settings.ts';

/** /dashboard/settings: kept in this browser only; Save shows 'Saved'. */
export default function SettingsView() {
  const saved = useStore($settings);
  const savedFlag = useStore($settingsSaved);
  const userName = useStore($userName);
  const userEmail = useStore($userEmail);
  const [form, setForm] = useState<DashboardSettings>(() => ({
    ...saved,
    fullName: saved.fullName || userName || '',
    email: saved.email || userEmail || '',
  }));
  const set = <K extends keyof DashboardSettings>(key: K, value: DashboardSettings[K]) => {
    settingsEdited();
    setForm({ ...form, [key]: value });
  };
  const submit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    saveSettings(form);
  };

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
          />
        </div>
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
          <button type="submit" className="dash-primary">
            Save
          </button>
          <span role="status" className="dash-ok">
            {savedFlag ? 'Saved' : ''}
          </span>
        </div>
      </form>
      <MfaSection />
    </section>
  );
}
