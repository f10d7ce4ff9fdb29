import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import { assigneesBody, imageReview, ratingBody } from '../../../contract/reviews.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { notFound } from '../../http-errors.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { imageReviewFor } from './image-review.ts';
import { reviewState } from './review-status.ts';
import { alreadyDecided, notEscalated, notTier2, unknownTag } from './reviews.errors.ts';

const errors = errorResponses(400, 401, 403, 404, 409);

/** The review of one image: read it, rate it (tier 1), decide it (tier 2), assign it to raters. */
export default async function reviewsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = {
    reviews: app.repos.reviews,
    settings: app.repos.reviewSettings,
  };
  const uploads = app.repos.uploads;

  /** The caller's membership and the image, which must be in the workspace the request acts in. */
  async function imageOf(request: FastifyRequest<{ Params: { stored_filename: string } }>) {
    const membership = currentMembership(request);
    const upload = await uploads.findInWorkspace(membership.workspaceId, request.params.stored_filename);
    return { membership, upload };
  }

  /** Tags must come from the workspace's list; each counts once. */
  async function checkedTags(workspaceId: string, tags: string[]): Promise<string[]> {
    const allowed = new Set((await deps.settings.get(workspaceId)).artefactTags);
    const unknown = tags.find((tag) => !allowed.has(tag));
    if (unknown !== undefined) throw unknownTag(unknown);
    return [...new Set(tags)];
  }

  const perImage = { params: storedFilenameParams };

  app.get(
    '/uploads/:stored_filename/review',
    { preHandler: app.inWorkspace('read'), schema: { ...perImage, response: { 200: imageReview, ...errors } } },
    async (request) => {
      const { membership, upload } = await imageOf(request);
      return imageReviewFor(deps, membership, upload);
    },
  );

  app.put(
    '/uploads/:stored_filename/review/rating',
    {
      preHandler: app.inWorkspace('rate'),
      schema: { ...perImage, body: ratingBody, response: { 200: imageReview, ...errors } },
    },
    async (request) => {
      const { membership, upload } = await imageOf(request);
      if (await deps.reviews.decisionOf(upload.id)) throw alreadyDecided();
      const body = request.body;
      const tags = await checkedTags(membership.workspaceId, body.tags);
      await deps.reviews.rate(
        upload.id,
        membership.userId,
        { rating: body.rating, tags, note: body.note },
        app.clock(),
      );
      await recordAudit(app, request, 'review.rate', { stored_filename: upload.storedFilename, rating: body.rating });
      return imageReviewFor(deps, membership, upload);
    },
  );

  app.delete(
    '/uploads/:stored_filename/review/rating',
    { preHandler: app.inWorkspace('rate'), schema: { ...perImage, response: { 200: imageReview, ...errors } } },
    async (request) => {
      const { membership, upload } = await imageOf(request);
      if (await deps.reviews.decisionOf(upload.id)) throw alreadyDecided();
      if (!(await deps.reviews.unrate(upload.id, membership.userId))) throw notFound('You have not rated this image');
      return imageReviewFor(deps, membership, upload);
    },
  );

  app.post(
    '/uploads/:stored_filename/review/decision',
    {
      preHandler: app.inWorkspace('rate'),
      schema: { ...perImage, body: ratingBody, response: { 200: imageReview, ...errors } },
    },
    async (request) => {
      const { membership, upload } = await imageOf(request);
      if (!(await deps.settings.isTier2(membership.workspaceId, membership.userId))) throw notTier2();
      if (await deps.reviews.decisionOf(upload.id)) throw alreadyDecided();
      const ratings = await deps.reviews.ratingsOf(upload.id);
      if (
        reviewState(
          ratings.map((r) => r.rating),
          null,
        ).status !== 'tier2'
      )
        throw notEscalated();
      const body = request.body;
      const tags = await checkedTags(membership.workspaceId, body.tags);
      const name = (await deps.reviews.namesOf([membership.userId])).get(membership.userId) ?? '';
      const made = await deps.reviews.decide(
        upload.id,
        { id: membership.userId, name },
        { rating: body.rating, tags, note: body.note },
        app.clock(),
      );
      // Two tier-2 reviewers at once: the first decision stands.
      if (!made) throw alreadyDecided();
      await recordAudit(app, request, 'review.decide', { stored_filename: upload.storedFilename, rating: body.rating });
      return imageReviewFor(deps, membership, upload);
    },
  );

  app.put(
    '/uploads/:stored_filename/review/assignees',
    {
      preHandler: app.inWorkspace('manage'),
      schema: { ...perImage, body: assigneesBody, response: { 200: imageReview, ...errors } },
    },
    async (request) => {
      const { membership, upload } = await imageOf(request);
      const userIds = [...new Set(request.body.user_ids)];
      await deps.settings.requireRaters(membership.workspaceId, userIds);
      await deps.reviews.assign(upload.id, userIds, app.clock());
      return imageReviewFor(deps, membership, upload);
    },
  );
}
