import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DATE_FORMAT_IDS, datePreferences, TIME_ZONES, type DatePreferencesBody } from '../../../contract/account.ts';
import { errorResponses } from '../../../contract/errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { userPreferences } from './preferences.table.ts';

const DEFAULTS: DatePreferencesBody = { time_zone: 'UTC', date_format: 'iso' };

/** A stored row as the API shows it; a value no longer offered falls back to the default. */
function toBody(row: { timeZone: string; dateFormat: string } | undefined): DatePreferencesBody {
  if (!row) return DEFAULTS;
  const zone = TIME_ZONES.find((z) => z === row.timeZone) ?? DEFAULTS.time_zone;
  const format = DATE_FORMAT_IDS.find((f) => f === row.dateFormat) ?? DEFAULTS.date_format;
  return { time_zone: zone, date_format: format };
}

/** GET and PUT /account/preferences: the time zone and date format of the signed-in user. */
export default async function preferencesRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { preHandler: app.authenticate };

  routes.get(
    '/account/preferences',
    { ...guarded, schema: { response: { 200: datePreferences, ...errorResponses(401) } } },
    async (request) => {
      const [row] = await app.db
        .select()
        .from(userPreferences)
        .where(eq(userPreferences.userId, currentUser(request).id))
        .limit(1);
      return toBody(row);
    },
  );

  routes.put(
    '/account/preferences',
    { ...guarded, schema: { body: datePreferences, response: { 200: datePreferences, ...errorResponses(400, 401) } } },
    async (request) => {
      const values = { timeZone: request.body.time_zone, dateFormat: request.body.date_format, updatedAt: app.clock() };
      await app.db
        .insert(userPreferences)
        .values({ userId: currentUser(request).id, ...values })
        .onConflictDoUpdate({ target: userPreferences.userId, set: values });
      return request.body;
    },
  );
}
