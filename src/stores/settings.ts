import { persistentAtom } from '@nanostores/persistent';
import { TIME_ZONES } from '../../contract/account.ts';
import { atom, computed } from 'nanostores';
import { isDateFormat, type DatePreferences, type DateFormat } from '../lib/date-format.ts';

/** The timezones offered (SPEC §2). */
export const TIMEZONES = TIME_ZONES;

/** The Settings form. */
export interface DashboardSettings {
  fullName: string;
  email: string;
  timezone: (typeof TIMEZONES)[number];
  /** How every date in the dashboard is written. */
  dateFormat: DateFormat;
  emailSummaries: boolean;
}

const defaults: DashboardSettings = {
  fullName: '',
  email: '',
  timezone: 'UTC',
  dateFormat: 'iso',
  emailSummaries: false,
};

function decodeSettings(raw: string): DashboardSettings {
  try {
    const value = { ...defaults, ...(JSON.parse(raw) as Partial<DashboardSettings>) };
    if (!isDateFormat(value.dateFormat)) value.dateFormat = defaults.dateFormat;
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

/** The time zone and date format every date of the dashboard is shown in. */
export const $datePreferences = computed($settings, (settings): DatePreferences => ({
  timeZone: settings.timezone,
  dateFormat: settings.dateFormat,
}));

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
