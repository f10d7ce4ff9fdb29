import { z } from './zod.ts';

// Line breaks in a name would let it fake lines in the e-mails and lists that show it.
const singleLine = /^[^\r\n]*$/;

/** Limits of the profile fields, shared by the API and the profile form. */
export const profileLimits = { name: 100, role: 100, institution: 200, bio: 2000 } as const;

/** A user's own profile, as GET /profile/me answers. */
export const profileResponse = z.object({
  user_id: z.string().describe('User id (UUID)'),
  name: z.string().describe('Display name'),
  email: z.string().describe('E-mail address the account signs in with'),
  role: z.string().nullable().describe('Free-text professional role, e.g. Radiologist'),
  institution: z.string().nullable().describe('Hospital, lab or company'),
  bio: z.string().nullable().describe('A few words about the user'),
  avatar_url: z.string().nullable().describe('Picture URL, null when none'),
  org_id: z.string().nullable().describe('Organisation id, null when none'),
});
export type ProfileResponse = z.infer<typeof profileResponse>;

/** What anyone signed in may see of another user. */
export const publicProfileResponse = z.object({
  user_id: z.string().describe('User id (UUID)'),
  name: z.string().describe('Display name'),
});
export type PublicProfileResponse = z.infer<typeof publicProfileResponse>;

/** Path of GET /profile/{userId}. */
export const profileParams = z.object({ userId: z.string().max(100).describe('User id (UUID)') });

const optionalText = (max: number, label: string, describe: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long (${max} characters at most)`)
    .nullish()
    .describe(`${describe}; empty or null clears it`);

/** Body of PATCH /profile/me; fields left out keep their value, empty ones are cleared. */
export const updateProfileRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Display name is required')
    .max(profileLimits.name, `Display name is too long (${profileLimits.name} characters at most)`)
    .regex(singleLine, 'Display name must be one line')
    .optional()
    .describe('Display name'),
  role: optionalText(profileLimits.role, 'Role', 'Free-text professional role'),
  institution: optionalText(profileLimits.institution, 'Institution', 'Hospital, lab or company'),
  bio: optionalText(profileLimits.bio, 'Bio', 'A few words about the user'),
});
export type UpdateProfileRequest = z.input<typeof updateProfileRequest>;
