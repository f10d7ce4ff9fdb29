import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPreviewCache, type PreviewCache } from './preview-cache.ts';
import { createThumbnailStore, type ThumbnailStore } from './thumbnail-store.ts';
import { createVolumeLoader, type VolumeLoader } from './volume-loader.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Decoded volumes, shared by previews, checks and deletion. */
    volumes: VolumeLoader;
    /** Rendered preview PNGs, shared by the preview route and deletion. */
    previewCache: PreviewCache;
    /** Card thumbnails, drawn once and kept in the database. */
    thumbnails: ThumbnailStore;
  }
}

/** The in-memory imaging caches of one app, decorated once for every module that reads or clears them. */
export default fp(async function previewServices(app: FastifyInstance) {
  const volumes = createVolumeLoader(app.storage, app.config.uploadMaxBytes);
  app.decorate('volumes', volumes);
  app.decorate('previewCache', createPreviewCache());
  app.decorate('thumbnails', createThumbnailStore({ db: app.db, storage: app.storage, volumes }));
});
