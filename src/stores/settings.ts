import { persistentAtom } from '@nanostores/persistent';
import { atom } from 'nanostores';

/** The timezones offered (SPEC §2). */
export const TIMEZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Tokyo'] as const;

/** The Settings form. */
export interface DashboardSettings {
  fullName: string;
  email: string;
  timezone: (typeof TIMEZONES)[number];
  mfa: boolean;
  emailSummaries: boolean;
}

const defaults: DashboardSettings = { fullName: '', email: '', timezone: 'UTC', mfa: false, emailSummaries: false };

function decodeSettings(raw: string): DashboardSettings {
  try {
    const value = { ...defaults, ...(JSON.parse(raw) as Partial<DashboardSettings>) };
    return TIMEZONES.includes(value.timezone) ? value : { ...value, timezone: 'UTC' };
  } catch {
    return defaults;
  }
}

/** The saved settings; kept in this browser only, no call is made (SPEC §2). */
export const $settings = persistentAtom<DashboardSettings>('dashboard_settings_v1', defaults, {
  encode: JSON.stringify,
  decode: decodeSettings,
});

/** Whether 'Saved' is showing. */
export const $settingsSaved = atom(false);

/** Saves the form in this browser and shows 'Saved'. */
export function saveSettings(values: DashboardSettings): void {
  $settings.set(values);
  $settingsSaved.set(true);
}

/** Hides 'Saved' once the form changes again. */
export function settingsEdited(): void {
  $settingsSaved.set(false);
}
