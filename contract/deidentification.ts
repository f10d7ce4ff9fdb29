import { z } from './zod.ts';

const attribute = z.object({
  tag: z.string().describe('"(gggg,eeee)"'),
  name: z.string().describe('The attribute as PS3.15 Table E.1-1 or the data dictionary names it'),
  count: z.number().int().positive().describe('How many times, counting every sequence item'),
});

/** Answer of GET /uploads/{stored_filename}/deidentification: what de-identifying that upload did. */
export const deidentificationReport = z.object({
  profile: z.string().describe('The confidentiality profile applied'),
  iod: z.string().nullable().describe('The PS3.3 IOD whose attribute Types chose between combined actions'),
  removed: z.array(attribute).describe('Attributes removed (X)'),
  emptied: z.array(attribute).describe('Attributes kept with an empty value (Z)'),
  replaced: z.array(attribute).describe('Attributes given a dummy value (D), sequences whose contents were'),
  uid_attributes: z.array(attribute).describe('Attributes whose UIDs were replaced (U)'),
  uids_remapped: z.number().int().nonnegative().describe('Distinct UIDs replaced, consistently for this owner'),
  private_tags_dropped: z.number().int().nonnegative().describe('Private attributes removed'),
  burned_in_text: z
    .enum(['not-checked', 'none-found', 'blanked', 'not-cleanable'])
    .describe('Text burned into the pixels: not checked, none found, blanked, or found and not cleanable'),
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
});
export type DeidentificationReportBody = z.infer<typeof deidentificationReport>;
