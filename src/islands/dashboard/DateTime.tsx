import { useStore } from '@nanostores/react';
import { formatDate } from '../../lib/date-format.ts';
import { $datePreferences } from '../../stores/settings.ts';

/**
 * A moment (epoch ms, ISO text or Date) in the user's time zone and date format from Settings; every
 * date the dashboard shows goes through here. `children` replaces the text (a relative age, for
 * example), and the formatted date then becomes the tooltip.
 */
export default function DateTime({
  at,
  dateOnly = false,
  children,
}: {
  at: number | string | Date;
  dateOnly?: boolean;
  children?: React.ReactNode;
}) {
  const preferences = useStore($datePreferences);
  const moment = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(moment.getTime())) return null;
  const text = formatDate(moment, preferences, { dateOnly });
  return (
    <time dateTime={moment.toISOString()} title={children === undefined ? undefined : text}>
      {children ?? text}
    </time>
  );
}
