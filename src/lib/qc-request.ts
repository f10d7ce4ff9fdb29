/** The vision model asked for the quality check (an OpenAI-compatible model name). */
export const QC_MODEL = 'google/medgemma-4b-it';

/** The prompt of the quality check (SPEC §7). */
export const QC_PROMPT =
  'You are a medical imaging quality-control assistant. Give a short QC summary of this image: list any ' +
  'quality issues (noise, motion blur, artefacts, exposure, contrast, cropping), a confidence from 0 to 100, ' +
  'and suggested fixes.';

/**
 * The body of POST /llm/generate-messages for one image, in the OpenAI chat format.
 * @example qcRequest('/api/v1/uploads/a.png').messages[0].content[0] // { type: 'image_url', … }
 */
export function qcRequest(imageUrl: string) {
  return {
    model: QC_MODEL,
    messages: [
      {
        role: 'user' as const,
        content: [
          { type: 'image_url' as const, image_url: { url: imageUrl } },
          { type: 'text' as const, text: QC_PROMPT },
        ],
      },
    ],
  };
}
