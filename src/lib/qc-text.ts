type Loose = Record<string, unknown> | undefined;

const asRecord = (value: unknown): Loose =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The text of message.content, whether a string or a list of text parts. */
function messageContent(message: unknown): string | undefined {
  const content = asRecord(message)?.content;
  if (Array.isArray(content)) {
    const parts = content.map((p) => (typeof p === 'string' ? p : nonEmpty(asRecord(p)?.text))).filter(Boolean);
    return parts.length ? parts.join('\n') : undefined;
  }
  return nonEmpty(content);
}

/**
 * The QC summary in a language-model answer, from message.content, choice.text or generated_text, result,
 * or a plain string (SPEC §7); undefined when none holds text ('No result').
 * @example extractQcText({ choices: [{ message: { content: 'Sharp, no artefacts' } }] }) // 'Sharp, no artefacts'
 */
export function extractQcText(answer: unknown): string | undefined {
  if (typeof answer === 'string') return nonEmpty(answer);
  const list = Array.isArray(answer) ? answer : undefined;
  const root = asRecord(list ? list[0] : answer);
  if (!root) return undefined;
  const choice = asRecord(Array.isArray(root.choices) ? root.choices[0] : undefined);
  return (
    messageContent(choice?.message) ??
    messageContent(root.message) ??
    nonEmpty(choice?.text) ??
    nonEmpty(root.generated_text) ??
    nonEmpty(choice?.generated_text) ??
    nonEmpty(root.result) ??
    nonEmpty(asRecord(root.result)?.text)
  );
}

/**
 * The message after 'QC failed: ' for a failed check: the server's detail or message, else 'Unknown error'.
 * @example qcErrorMessage({ detail: 'Model offline' }) // 'Model offline'
 */
export function qcErrorMessage(body: unknown): string {
  const record = asRecord(body);
  const error = asRecord(record?.error);
  return (
    nonEmpty(record?.detail) ??
    nonEmpty(record?.message) ??
    nonEmpty(error?.message) ??
    nonEmpty(typeof body === 'string' ? body : undefined) ??
    'Unknown error'
  );
}
