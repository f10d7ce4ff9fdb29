import { HttpError } from '../../http-errors.ts';

/** Where the OpenAI-compatible upstream is, as configured by LLM_BASE_URL, LLM_API_KEY and LLM_MODEL. */
export interface UpstreamConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** What is sent about one image: the pixels as PNG, the prompt and the measurements; never DICOM tags. */
export interface UpstreamQuestion {
  model: string;
  prompt: string;
  png: Buffer;
  metricsText: string;
  timeoutMs: number;
}

const upstreamFailure = (reason: string) => new HttpError(502, `The quality-check model could not answer: ${reason}.`);

/** The chat-completions endpoint under a base URL given with or without its /v1. */
export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/chat/completions`;
}

function contentOf(answer: unknown): string | undefined {
  const choice = (answer as { choices?: { message?: { content?: unknown }; text?: unknown }[] })?.choices?.[0];
  const content = choice?.message?.content ?? choice?.text;
  if (typeof content === 'string') return content.trim() || undefined;
  if (Array.isArray(content)) {
    const text = content
      .map((part) => (typeof part === 'string' ? part : (part as { text?: unknown })?.text))
      .filter((t) => typeof t === 'string')
      .join('\n');
    return text.trim() || undefined;
  }
  return undefined;
}

/**
 * Asks an OpenAI-compatible vision model (vLLM, Ollama, TGI…) about one image. The image travels as a
 * data: URL, so the upstream never needs to reach this server. Throws a 502 naming the failure.
 */
export async function askUpstream(
  config: UpstreamConfig,
  question: UpstreamQuestion,
): Promise<{ content: string; model: string }> {
  const body = {
    model: question.model,
    temperature: 0.2,
    max_tokens: 400,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: `data:image/png;base64,${question.png.toString('base64')}` } },
          { type: 'text', text: `${question.prompt}\n\nMeasured by the server: ${question.metricsText}.` },
        ],
      },
    ],
  };
  let response: Response;
  try {
    response = await fetch(completionsUrl(config.baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(question.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw upstreamFailure(
      timedOut ? `no answer within ${question.timeoutMs / 1000} s` : 'the server could not be reached',
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw upstreamFailure(`it answered HTTP ${response.status}`);
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw upstreamFailure('its answer was not JSON');
  }
  const content = contentOf(answer);
  if (!content) throw upstreamFailure('its answer held no text');
  const model = (answer as { model?: unknown }).model;
  return { content, model: typeof model === 'string' && model ? model : question.model };
}
