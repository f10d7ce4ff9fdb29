import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/errors.ts';
import {
  chatCompletionResponse,
  generateMessagesRequest,
  qcResultList,
  type GenerateMessagesRequest,
} from '../../../contract/qc.ts';
import { storedFilenameParams } from '../../../contract/uploads.ts';
import { badRequest, tooManyRequests } from '../../http-errors.ts';
import { sliceCount } from '../../imaging/preview-render.ts';
import { renderSliceOffThread } from '../previews/render-off-thread.ts';
import { currentUser } from '../auth/auth.guard.ts';
import { currentMembership } from '../workspaces/workspace.guard.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { checkRow, type ModelAnswer } from './builtin-check.ts';
import { checkVolumeOffThread } from './check-off-thread.ts';
import { imageUrlsOf, storedFilenameOfUrl } from './image-url.ts';
import { askUpstream } from './llm-proxy.ts';
import { perUserConcurrency } from './per-user-concurrency.ts';
import { contextAmong, createCohortSource } from './qc-cohort.ts';
import { chatCompletion, confidenceInText, metricsLine } from './qc-summary.ts';

/** The browser gives up after 10 s (SPEC §9); the upstream gets a little less so its failure can be told. */
const UPSTREAM_TIMEOUT_MS = 9_000;
const DEFAULT_PROMPT =
  'Give a short QC summary of this medical image: list any quality issues, a confidence from 0 to 100, and suggested fixes.';

/** Checks one user may have running at once: one per core of a small server; more only queue on the CPU. */
export const CHECKS_PER_USER = 2;
/** Why a check over that bound is refused. */
export const CHECKS_BUSY = `You already have ${CHECKS_PER_USER} checks running. Wait for one to finish, or check many images at once from the Analysis page.`;

const errors = errorResponses(400, 401, 403, 404, 413, 415, 422, 429, 502);

function promptOf(body: GenerateMessagesRequest): string {
  const texts = body.messages.flatMap((m) =>
    typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])),
  );
  return texts.join('\n').trim() || DEFAULT_PROMPT;
}

function ownOrigins(app: FastifyInstance, request: FastifyRequest): string[] {
  return [new URL(app.config.publicSiteUrl).origin, `${request.protocol}://${request.host}`];
}

/** The quality check (SPEC §7) and the history of checks of an image. */
export default async function qcRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const uploadsRepo = app.repos.uploads;
  const repo = app.repos.qc;
  const cohorts = createCohortSource({ db: app.db });
  const volumes = app.volumes;
  // Running a check is for those who may change the library; reading results is every member's.
  const checkSlots = perUserConcurrency(CHECKS_PER_USER);

  async function checkOne(request: FastifyRequest<{ Body: GenerateMessagesRequest }>) {
    const member = currentMembership(request);
    const urls = imageUrlsOf(request.body);
    if (urls.length !== 1) throw badRequest('Send exactly one image_url: the url of one of your uploads.');
    const upload = await uploadsRepo.findInWorkspace(
      member.workspaceId,
      storedFilenameOfUrl(urls[0]!, ownOrigins(app, request)),
    );
    const volume = await volumes.load(upload);
    const check = await checkVolumeOffThread(volume);
    const { metrics, assessment } = check;
    const peers = await cohorts.peers(member.userId, upload.id, metrics.family, metrics.protocol);
    const cohort = contextAmong(metrics, upload.id, peers);
    let answer: ModelAnswer | undefined;
    if (app.config.llm) {
      const png = await renderSliceOffThread(volume, 'axial', Math.floor(sliceCount(volume, 'axial') / 2));
      const upstreamModel = app.config.llm.model !== 'default' ? app.config.llm.model : request.body.model;
      const upstream = await askUpstream(app.config.llm, {
        model: upstreamModel,
        prompt: promptOf(request.body),
        png,
        metricsText: metricsLine(metrics),
        timeoutMs: UPSTREAM_TIMEOUT_MS,
      });
      answer = {
        ...upstream,
        confidence: confidenceInText(upstream.content) ?? assessment.confidence,
      };
    }
    const now = app.clock();
    const row = await repo.insert(
      checkRow({ uploadId: upload.id, ownerId: member.userId }, check, now, answer, cohort),
    );
    await recordAudit(app, request, 'qc.run', {
      stored_filename: upload.storedFilename,
      original_name: upload.originalName,
      verdict: assessment.verdict,
    });
    return {
      ...chatCompletion(row.id, row.model, row.text, now),
      qc: {
        result_id: row.id,
        stored_filename: upload.storedFilename,
        verdict: assessment.verdict,
        confidence: row.confidence,
        issues: assessment.issues,
        fixes: assessment.fixes,
        measurements: assessment.measures,
        metrics,
        ...(cohort ? { cohort } : {}),
      },
    };
  }

  app.post(
    '/llm/generate-messages',
    {
      preHandler: app.inWorkspace('upload'),
      // The built-in engine is bounded by how many checks a user has running (checkSlots); a rate limit is
      // kept only where each check costs a call to the upstream model.
      config: app.config.llm ? { rateLimit: { max: 30, timeWindow: '1 minute' } } : {},
      schema: { body: generateMessagesRequest, response: { 200: chatCompletionResponse, ...errors } },
    },
    async (request) => {
      const release = checkSlots.tryAcquire(currentUser(request).id);
      if (!release) throw tooManyRequests(CHECKS_BUSY);
      try {
        return await checkOne(request);
      } finally {
        release();
      }
    },
  );

  app.get(
    '/uploads/:stored_filename/qc-results',
    {
      preHandler: app.inWorkspace('read'),
      schema: { params: storedFilenameParams, response: { 200: qcResultList, ...errors } },
    },
    async (request) => {
      const upload = await uploadsRepo.findInWorkspace(
        currentMembership(request).workspaceId,
        request.params.stored_filename,
      );
      return repo.listForUpload(upload.id);
    },
  );
}
