import { eq } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Database } from '../../db/connect.ts';
import { HttpError } from '../../http-errors.ts';
import type { Storage } from '../../storage/storage.ts';
import { createUploadsRepository, type UploadRow } from '../uploads/uploads.repository.ts';
import { imageMetadataOf } from './image-metadata.ts';
import { imagingHttpError } from './imaging-errors.ts';
import { renderThumbnailOffThread } from './render-off-thread.ts';
import { thumbnails } from './thumbnails.table.ts';
import { hasMetadata, metadataWithoutPixels } from './upload-metadata.ts';
import type { VolumeLoader } from './volume-loader.ts';

/** Thumbnails drawn at once: each decodes a whole file, and a library page asks for dozens together. */
const DRAWING_AT_ONCE = 2;
/** Answers about the file itself, kept so a picture that cannot be drawn is not tried again at every scroll. */
const KEPT_REFUSALS = new Set([413, 415, 422]);

/** An upload's thumbnail (none when it has no picture to draw), and the modality its metadata names. */
export interface Thumbnail {
  image: Buffer | null;
  modality?: string;
}

type ThumbnailUpload = Pick<UploadRow, 'id' | 'storedFilename' | 'format' | 'deidentified' | 'metadata'>;

/**
 * Card thumbnails of uploads, drawn on first request and kept in the database with the upload (see
 * thumbnails.table.ts). Drawing one also saves the upload's metadata when it had none, so the library
 * lists its modality from then on.
 */
export function createThumbnailStore({
  db,
  storage,
  volumes,
}: {
  db: Database;
  storage: Storage;
  volumes: VolumeLoader;
}) {
  const limit = pLimit(DRAWING_AT_ONCE);
  // Drawings under way or waiting their turn, so that parallel requests for one upload share one drawing,
  // and a drawing whose every asker has gone (a card scrolled past) is skipped when its turn comes.
  const drawing = new Map<string, { pending: Promise<Thumbnail>; askers: (() => boolean)[] }>();
  const modalityOf = (metadata: unknown) =>
    (hasMetadata(metadata) && typeof metadata.modality === 'string' && metadata.modality) || undefined;

  async function draw(upload: ThumbnailUpload): Promise<Thumbnail> {
    let image: Buffer | null = null;
    let refused: HttpError | undefined;
    let metadata = hasMetadata(upload.metadata) ? upload.metadata : undefined;
    try {
      const volume = await volumes.loadOnce(upload);
      image = await renderThumbnailOffThread(volume);
      metadata ??= imageMetadataOf(volume, upload.deidentified);
    } catch (error) {
      refused = imagingHttpError(error);
      // A storage failure is the server's, and may pass: nothing is kept, the next request tries again.
      if (!KEPT_REFUSALS.has(refused.statusCode)) throw refused;
      metadata ??= await metadataWithoutPixels(storage, upload, refused).catch(() => undefined);
    }
    try {
      await db.transaction(async (tx) => {
        await tx
          .insert(thumbnails)
          .values({ uploadId: upload.id, image, reason: refused?.message ?? null, status: refused?.statusCode ?? null })
          .onConflictDoNothing();
        if (metadata && !hasMetadata(upload.metadata)) {
          await createUploadsRepository({ db }).saveMetadata(upload.id, metadata, { onlyIfUnset: true }, tx);
        }
      });
    } catch {
      // The upload was deleted while its thumbnail was drawn: there is nothing left to keep it for.
    }
    return { image, modality: modalityOf(metadata) };
  }

  return {
    /**
     * The thumbnail of an upload the caller has scoped: the kept one, else drawn now (and kept). `wanted`
     * tells whether the asker still waits for it.
     */
    async get(upload: ThumbnailUpload, wanted: () => boolean = () => true): Promise<Thumbnail> {
      const [kept] = await db.select().from(thumbnails).where(eq(thumbnails.uploadId, upload.id)).limit(1);
      const modality = modalityOf(upload.metadata);
      if (kept) return { image: kept.image, modality };
      let entry = drawing.get(upload.id);
      if (!entry) {
        const askers: (() => boolean)[] = [];
        const pending = limit(() => {
          if (!askers.some((asker) => asker())) throw new HttpError(503, 'Nobody waits for this thumbnail any more');
          return draw(upload);
        }).finally(() => drawing.delete(upload.id));
        entry = { pending, askers };
        drawing.set(upload.id, entry);
      }
      entry.askers.push(wanted);
      return entry.pending;
    },
  };
}

export type ThumbnailStore = ReturnType<typeof createThumbnailStore>;
