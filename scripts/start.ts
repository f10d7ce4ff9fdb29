// `npm start`: the whole product on embedded defaults at one URL.
import { buildSiteIfStale } from './site-build.ts';

buildSiteIfStale();
// The server applies the database migrations when it opens the database, before it listens.
await import('../server/main.ts');
