import type { FastifyInstance } from 'fastify';

/**
 * A getter for one `T` per app, made on first use. Previews, checks and deletion are registered as
 * separate plugins, so what they share is found through the app's storage rather than decorated on it.
 */
export function onePerApp<T>(create: (app: FastifyInstance) => T): (app: FastifyInstance) => T {
  const made = new WeakMap<FastifyInstance['storage'], T>();
  return (app) => {
    let value = made.get(app.storage);
    if (value === undefined) {
      value = create(app);
      made.set(app.storage, value);
    }
    return value;
  };
}
