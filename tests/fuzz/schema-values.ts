// Values that satisfy a JSON Schema of the OpenAPI document, as fast-check arbitraries. Written here because the
// published converters do not fit: json-schema-fast-check is archived and zod-fast-check supports neither Zod 4
// nor fast-check 4. It covers the keywords the document uses (type, enum, format, pattern, lengths, bounds,
// items, properties, required, anyOf, oneOf), which a test in tests/server/fuzz.test.ts keeps true (SCHEMA_KEYWORDS).
import fc from 'fast-check';

/** The keywords these generators honour, and the annotations they may ignore; a schema with any other is not covered. */
export const SCHEMA_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'anyOf',
  'oneOf',
  'description',
  'default',
  'examples',
]);

/** The keywords of `schema` and every schema inside it that SCHEMA_KEYWORDS does not hold. */
export function unknownKeywords(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYWORDS.has(key)) found.push(key);
    if (key === 'properties')
      for (const property of Object.values(value as object)) found.push(...unknownKeywords(property));
    if (key === 'items') found.push(...unknownKeywords(value));
    if (key === 'anyOf' || key === 'oneOf')
      for (const choice of value as unknown[]) found.push(...unknownKeywords(choice));
  }
  return found;
}

/** The part of a JSON Schema these generators read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** A value to be read from the live fixtures when the request is sent: `kind` names the pool, `n` picks in it. */
export class FixtureValue {
  readonly kind: string;
  readonly n: number;
  constructor(kind: string, n: number) {
    this.kind = kind;
    this.n = n;
  }
}

/** Field names whose valid values are the fixtures' own (a real e-mail, a real image, a real member). */
export type FieldHints = Record<string, (schema: JsonSchema) => fc.Arbitrary<unknown>>;

/** Generated strings are mostly short: validity, not size, is this generator's job (the hostile arm sends 1 MB). */
const LONGEST_STRING = 40;
const MOST_ITEMS = 4;
/** Up to this maxLength, a string of exactly that length is among the valid values. */
const LONGEST_BOUNDARY = 10_000;

/** Control characters and lone surrogates: a pattern's negated class admits them, the server's text rule does not. */
const refusedText = (s: string) => !s.isWellFormed() || /\p{Cc}/u.test(s);

function stringValue(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? LONGEST_STRING, LONGEST_STRING));
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.pattern) {
    const longest = schema.maxLength ?? Infinity;
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= longest && !refusedText(s) && s.trim() === s);
  }
  // A string of spaces only would be trimmed to nothing by a field that must not be empty.
  const fits = (s: string) =>
    s.length <= (schema.maxLength ?? Infinity) && (minLength === 0 || s.trim().length >= minLength);
  const choices = [
    { weight: 8, arbitrary: fc.string({ minLength, maxLength }).filter(fits) },
    // Any Unicode text (accents, scripts, emoji), and the longest text the schema allows: still valid, rarer.
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }).filter(fits) },
  ];
  if (schema.maxLength !== undefined && schema.maxLength <= LONGEST_BOUNDARY) {
    const length = schema.maxLength;
    choices.push({ weight: 1, arbitrary: fc.string({ minLength: length, maxLength: length }).filter(fits) });
  }
  return fc.oneof(...choices);
}

function numberValue(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const step = integer ? 1 : 1e-6;
  // The schema's own bounds, reached one time in ten: an edge a handler may not expect though validation allows it.
  const edges = [
    schema.minimum ?? (exclusiveMin === undefined ? undefined : exclusiveMin + step),
    schema.maximum ?? (exclusiveMax === undefined ? undefined : exclusiveMax - step),
  ].filter((edge) => edge !== undefined);
  // Otherwise ordinary values, the ones a client sends: bounds as large as MAX_SAFE_INTEGER say little.
  let min = schema.minimum ?? (exclusiveMin === undefined ? -1000 : exclusiveMin + (integer ? 1 : 1e-6));
  let max = schema.maximum ?? (exclusiveMax === undefined ? 1000 : exclusiveMax - (integer ? 1 : 1e-6));
  if (schema.exclusiveMinimum === true) min += integer ? 1 : 1e-6;
  if (schema.exclusiveMaximum === true) max -= integer ? 1 : 1e-6;
  max = Math.min(max, Math.max(min, 0) + 100_000);
  const ordinary = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return edges.length ? fc.oneof({ weight: 9, arbitrary: ordinary }, fc.constantFrom(...edges)) : ordinary;
}

/** An arbitrary of values valid against `schema`; a property named in `hints` takes its value from there. */
export function schemaValue(schema: JsonSchema, hints: FieldHints = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => schemaValue(choice, hints)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringValue(schema);
    case 'integer':
      return numberValue(schema, true);
    case 'number':
      return numberValue(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MOST_ITEMS, MOST_ITEMS));
      return fc.array(schemaValue(schema.items ?? {}, hints), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          hints[name] ? hints[name](property) : schemaValue(property, hints),
        ]),
      );
      const requiredKeys = (schema.required ?? []).filter((key) => key in properties);
      return fc.record(model, { requiredKeys });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}
