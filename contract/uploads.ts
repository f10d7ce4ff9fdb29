import { qcVerdict } from './qc.ts';
import { z } from './zod.ts';

/** One stored image as listed to its owner (SPEC §3, Upload item). */
export const uploadItem = z.object({
  stored_filename: z.string().describe('Server-made name, also the key of every per-file route'),
  original_name_guess: z.string().describe("The client's file name without any path; display only"),
  extension: z.string().describe('Lower-case extension with its leading dot, such as ".nii.gz"'),
  size_bytes: z.number().int().nonnegative().describe('Size of the stored file in bytes'),
  modified: z.number().int().describe('When it was uploaded, in epoch seconds'),
  url: z.string().describe('Path of the file itself; needs the bearer token'),
  slice_count: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('For a DICOM series grouped from several slices: how many; the file is then a .zip of them'),
  identifiable: z
    .literal(true)
    .optional()
    .describe(
      'Present on a DICOM file that may identify its patient: kept as sent, or with text burned into its pixels that could not be blanked',
    ),
  thumbnail_url: z
    .string()
    .optional()
    .describe('In GET /uploads: path of a small picture of the image (the middle slice of a volume or series)'),
  modality: z
    .string()
    .optional()
    .describe('In GET /uploads: the DICOM modality code (CT, MR…), once the server has read the file and when it says'),
  qc_verdict: qcVerdict.optional().describe('In GET /uploads: the verdict of the latest quality check, if any'),
});
export type UploadItem = z.infer<typeof uploadItem>;

/** Answer of GET /uploads: the caller's items, newest first. */
export const uploadList = z.array(uploadItem).describe("The caller's uploads, newest first");

/** Most items one page of GET /uploads holds. */
export const MAX_PAGE_SIZE = 1000;

/**
 * Query of GET /uploads. Neither given: the whole list, as the dashboard reads it. With `limit`, one page;
 * the answer's NEXT_CURSOR_HEADER then carries the `cursor` of the next page while there is one.
 */
export const uploadListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe('Items per page'),
  cursor: z
    .string()
    .max(300)
    .optional()
    .describe('The stored_filename after which the page starts, as given by the previous page'),
  search: z
    .string()
    .max(200)
    .optional()
    .describe('Only images whose original name contains this text, case-insensitively (the My Images search)'),
});

/** Header of a GET /uploads page naming the cursor of the next page; absent on the last one. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** Header of a thumbnail answer naming the image's DICOM modality, when known. */
export const MODALITY_HEADER = 'x-modality';

/** Path parameter naming one upload. */
export const storedFilenameParams = z.object({
  // Any text: a name that was never issued is simply not found (404), like someone else's.
  stored_filename: z.string().max(300).describe('The stored_filename of an upload'),
});

/** Answer of POST /uploads/{stored_filename}/share-links. */
export const shareLinkResponse = z.object({
  url: z.string().describe('Absolute link to this one file, usable without a bearer token until it expires'),
  expires_at: z.string().describe('ISO 8601 moment after which the link stops working'),
});
export type ShareLinkResponse = z.infer<typeof shareLinkResponse>;

/** One live share link of an upload, as GET /uploads/{stored_filename}/share-links lists it (never its secret). */
export const shareLinkItem = z.object({
  id: z.string().describe('Names the link for DELETE /uploads/{stored_filename}/share-links/{id}'),
  created_at: z.string().describe('ISO 8601 moment it was made'),
  expires_at: z.string().describe('ISO 8601 moment after which it stops working'),
});

/** Answer of GET /uploads/{stored_filename}/share-links: the live links, newest first. */
export const shareLinkList = z.array(shareLinkItem);

/** Path parameters naming one share link of one upload. */
export const shareLinkParams = z.object({
  stored_filename: z.string().max(300).describe('The stored_filename of an upload'),
  id: z.uuid().describe('The id of one of its share links'),
});

/** Path parameter of GET /shared/{token}. */
export const shareTokenParams = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,128}$/, 'Unknown link')
    .describe('The secret of a share link'),
});

/** How long a share link works: 24 hours. */
export const SHARE_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** Header of GET /uploads giving UPLOAD_MAX_BYTES, so a browser refuses a too-large file before sending it. */
export const UPLOAD_LIMIT_HEADER = 'x-upload-max-bytes';

/**
 * The refusal of a file over the upload limit, the same from the server (413) and the browser.
 * @example tooLargeMessage(2 * 1024 ** 3) // 'This file is larger than the 2048 MB limit'
 */
export function tooLargeMessage(limitBytes: number): string {
  return `This file is larger than the ${Number((limitBytes / 1024 / 1024).toFixed(2))} MB limit`;
}

/** Query of POST /uploads and POST /uploads/series. */
export const uploadQuery = z.object({
  deidentify: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'false keeps the files as sent: no de-identification, no metadata stripping, the client names kept. ' +
        'Workspace admins only (403 for anyone else), and recorded in the audit log as kept_original',
    ),
});

/** The 403 detail of a non-admin asking to keep originals (deidentify=false). */
export const KEEP_ORIGINAL_ADMINS_ONLY =
  'Only a workspace admin can keep files as sent (deidentify=false): uploads by other members are always de-identified.';
