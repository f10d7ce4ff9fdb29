import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contract/errors.ts';
import {
  profileParams,
  profileResponse,
  publicProfileResponse,
  updateProfileRequest,
  type ProfileResponse,
} from '../../../contract/profile.ts';
import { notFound, unauthorized } from '../../http-errors.ts';
import { currentUser } from '../auth/auth.guard.ts';
import type { ProfileChanges, UserRow } from '../auth/users.repository.ts';

// One's own profile in full, anyone else's as id and name: the serializer keeps only the matching fields.
const someonesProfile = profileResponse.or(publicProfileResponse);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The profile answer of a user row. */
export function toProfile(user: UserRow): ProfileResponse {
  return {
    user_id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    institution: user.institution,
    bio: user.bio,
    avatar_url: user.avatarUrl,
    org_id: user.orgId,
  };
}

/** GET /profile/me, GET /profile/{userId} (others: id and name only), PATCH /profile/me. */
export default async function profileRoutes(app: FastifyInstance): Promise<void> {
  const users = app.repos.users;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const guarded = { preHandler: app.authenticate };

  routes.get(
    '/profile/me',
    { ...guarded, schema: { response: { 200: profileResponse, 401: errorResponse } } },
    async (request) => {
      const user = await users.findById(currentUser(request).id);
      if (!user) throw unauthorized();
      return toProfile(user);
    },
  );

  routes.get(
    '/profile/:userId',
    {
      ...guarded,
      schema: {
        params: profileParams,
        response: { 200: someonesProfile, 401: errorResponse, 404: errorResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { userId } = request.params;
      if (!UUID.test(userId)) throw notFound('User not found');
      const user = await users.findById(userId);
      if (!user) throw notFound('User not found');
      return user.id === me.id ? toProfile(user) : { user_id: user.id, name: user.name };
    },
  );

  routes.patch(
    '/profile/me',
    {
      ...guarded,
      schema: {
        body: updateProfileRequest,
        response: { 200: profileResponse, 400: errorResponse, 401: errorResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const changes: ProfileChanges = {};
      if (body.name !== undefined) changes.name = body.name;
      // Left out: unchanged; sent empty or null: cleared.
      for (const field of ['role', 'institution', 'bio'] as const) {
        if (body[field] !== undefined) changes[field] = body[field] || null;
      }
      const user = await users.updateProfile(currentUser(request).id, changes);
      if (!user) throw unauthorized();
      return toProfile(user);
    },
  );
}
