import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const compressible = /\.(html|css|js|mjs|json|svg|xml|txt|wasm|map)$/;

/** Astro integration: writes .br and .gz beside every text asset of dist/ so the server never compresses on the fly. */
export function precompress() {
  return {
    name: 'precompress',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        const entries = await readdir(root, { recursive: true, withFileTypes: true });
        for (const entry of entries) {
          if (!entry.isFile() || !compressible.test(entry.name)) continue;
          const file = path.join(entry.parentPath, entry.name);
          const body = await readFile(file);
          if (body.length < 512) continue;
          await writeFile(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
        }
      },
    },
  };
}
