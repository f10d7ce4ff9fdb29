import { z } from 'zod';

// zod probes for `new Function` the first time it parses an object; in the browser, the pages' strict CSP
// (no 'unsafe-eval') refuses it and reports a violation even though zod catches the refusal. Without the
// JIT zod skips the probe. The server keeps the JIT. Every contract module imports zod from here.
if ('document' in globalThis) z.config({ jitless: true });

export { z };
