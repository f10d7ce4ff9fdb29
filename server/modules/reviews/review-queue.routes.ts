import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import {
  agreementReport,
  latestList,
  queuePage,
  queueQuery,
  reviewSettings,
  reviewSettingsUpdate,
} from '../../../contract/reviews.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { roleAllows } from '../workspaces/workspace-roles.ts';
import { agreementOf, matchesFilter, queueItems } from './review-queue.ts';
import { toReviewSettings } from './review-settings.repository.ts';

const errors = errorResponses(400, 401, 403, 404);

/** The review of a workspace as a whole: its settings, the queue, the cards' decisions and the agreement. */
export default async function reviewQueueRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const reviews = app.repos.reviews;
  const settings = app.repos.reviewSettings;
  const reading = { preHandler: app.inWorkspace('read') };

  /** The workspace's table and every image as the caller may see it (blind reads applied). */
  async function seenBy(request: FastifyRequest) {
    const membership = currentMembership(request);
    const [table, stored] = await Promise.all([
      reviews.workspaceTable(membership.workspaceId, membership.userId),
      settings.get(membership.workspaceId),
    ]);
    const canRate = roleAllows(membership.role, 'rate');
    const entries = queueItems(table, {
      userId: membership.userId,
      canRate,
      tier2: canRate && stored.tier2UserIds.includes(membership.userId),
      blind: stored.blind,
    });
    return { table, entries };
  }

  /** Every image as the caller may see it. */
  const itemsFor = async (request: FastifyRequest) => (await seenBy(request)).entries;

  app.get(
    '/reviews/settings',
    { ...reading, schema: { response: { 200: reviewSettings, ...errors } } },
    async (request) => toReviewSettings(await settings.get(currentMembership(request).workspaceId)),
  );

  app.patch(
    '/reviews/settings',
    {
      preHandler: app.inWorkspace('manage'),
      schema: { body: reviewSettingsUpdate, response: { 200: reviewSettings, ...errors } },
    },
    async (request) => {
      const membership = currentMembership(request);
      const body = request.body;
      await settings.update(
        membership.workspaceId,
        { blind: body.blind, artefactTags: body.artefact_tags, tier2UserIds: body.tier2_user_ids },
        app.clock(),
      );
      await recordAudit(app, request, 'review.settings', { ...body });
      return toReviewSettings(await settings.get(membership.workspaceId));
    },
  );

  app.get(
    '/reviews/queue',
    { ...reading, schema: { querystring: queueQuery, response: { 200: queuePage, ...errors } } },
    async (request) => {
      const { filter, limit, after } = request.query;
      const entries = await itemsFor(request);
      // `after` anchors in the whole library's order, not in the filtered list: an image rated since the
      // previous page (and so gone from "not rated by me") still marks where the next page starts.
      const anchor = after === undefined ? -1 : entries.findIndex((e) => e.item.stored_filename === after);
      const matches = (list: typeof entries) =>
        list.filter((entry) => matchesFilter(entry, filter)).map((entry) => entry.item);
      const rest = matches(entries.slice(anchor + 1));
      const page = rest.slice(0, limit);
      const more = rest.length > limit;
      const total = after === undefined ? rest.length : matches(entries).length;
      return { items: page, total, next: more ? page.at(-1)!.stored_filename : null };
    },
  );

  app.get('/reviews/latest', { ...reading, schema: { response: { 200: latestList, ...errors } } }, async (request) =>
    (await itemsFor(request)).flatMap(({ item }) =>
      item.latest ? [{ stored_filename: item.stored_filename, status: item.status, latest: item.latest }] : [],
    ),
  );

  app.get(
    '/reviews/agreement',
    { ...reading, schema: { response: { 200: agreementReport, ...errors } } },
    async (request) => {
      const { table, entries } = await seenBy(request);
      // Blind reads hold for the figures too: an image whose ratings the caller may not see yet counts for
      // nothing, or a pair's kappa over few images would tell what the other raters chose.
      const hidden = new Set(entries.filter((e) => e.item.status === 'hidden').map((e) => e.item.stored_filename));
      const hiddenIds = new Set(table.images.filter((i) => hidden.has(i.storedFilename)).map((i) => i.id));
      const seen = { ...table, ratings: table.ratings.filter((r) => !hiddenIds.has(r.uploadId)) };
      const names = await reviews.namesOf([...new Set(seen.ratings.map((r) => r.raterId))]);
      return agreementOf(seen, names);
    },
  );
}
