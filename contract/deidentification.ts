import { z } from './zod.ts';

const attribute = z.object({
  tag: z.string().describe('"(gggg,eeee)"'),
  name: z.string().describe('The attribute as PS3.15 Table E.1-1 or the data dictionary names it'),
  count: z.number().int().positive().describe('How many times, counting every sequence item'),
});

/** Most rectangles one file may have blanked by hand, all requests together. */
export const MAX_BLANKED_REGIONS = 50;

/** A rectangle of the image, in stored pixels from its top left corner (column x, row y). */
export const blankingRegion = z.object({
  x: z.number().int().nonnegative().max(65535),
  y: z.number().int().nonnegative().max(65535),
  width: z.number().int().positive().max(65535),
  height: z.number().int().positive().max(65535),
});
export type BlankingRegion = z.infer<typeof blankingRegion>;

/** Body of POST /uploads/{stored_filename}/deidentification/regions: rectangles to blank in every frame. */
export const blankingRegionsRequest = z.object({
  regions: z.array(blankingRegion).min(1).max(MAX_BLANKED_REGIONS).describe('Rectangles to blank, in stored pixels'),
});
export type BlankingRegionsRequest = z.infer<typeof blankingRegionsRequest>;

/** Answer of GET /uploads/{stored_filename}/deidentification: what de-identifying that upload did. */
export const deidentificationReport = z.object({
  profile: z.string().describe('The confidentiality profile applied'),
  iod: z.string().nullable().describe('The PS3.3 IOD whose attribute Types chose between combined actions'),
  removed: z.array(attribute).describe('Attributes removed (X)'),
  emptied: z.array(attribute).describe('Attributes kept with an empty value (Z)'),
  replaced: z.array(attribute).describe('Attributes given a dummy value (D), sequences whose contents were'),
  uid_attributes: z.array(attribute).describe('Attributes whose UIDs were replaced (U)'),
  uids_remapped: z.number().int().nonnegative().describe('Distinct UIDs replaced, consistently within this workspace'),
  private_tags_dropped: z.number().int().nonnegative().describe('Private attributes removed'),
  burned_in_text: z
    .enum(['not-checked', 'none-found', 'blanked', 'not-cleanable', 'not-checkable'])
    .describe(
      'Text burned into the pixels: not checked, none found, blanked, found and not cleanable, or possible and not checkable (then not de-identified)',
    ),
  burned_in_reason: z
    .string()
    .nullable()
    .describe('Why burned-in text could not be checked ("burned-in text could not be checked: …"), else null'),
  burned_in_regions: z
    .array(
      z.object({
        frame: z.number().int().nonnegative(),
        x: z.number().int().nonnegative(),
        y: z.number().int().nonnegative(),
        width: z.number().int().positive(),
        height: z.number().int().positive(),
      }),
    )
    .describe('Where burned-in text was found (in that frame) and blanked (in every frame); what it said is not kept'),
  burned_in_annotation: z
    .string()
    .nullable()
    .describe('Burned In Annotation (0028,0301) as stored; YES means text may remain in the pixels'),
  blanked_regions: z
    .array(blankingRegion.extend({ blanked_at: z.string().describe('ISO 8601') }))
    .describe('Rectangles members drew and had blanked, in every frame, oldest first'),
  pixel_data_decompressed: z
    .boolean()
    .describe('Compressed pixel data was decoded to blank it and is stored as Explicit VR Little Endian'),
  confirmed_clean: z
    .object({ by: z.string().describe('Name of the member who confirmed'), at: z.string().describe('ISO 8601') })
    .nullable()
    .describe('A member confirmed, after blanking by hand, that no other burned-in text remains'),
});
export type DeidentificationReportBody = z.infer<typeof deidentificationReport>;
