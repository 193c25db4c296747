/** Validates one JSONL line into a candidate record, or says precisely why it is rejected. */
import { exactZeroOrOne, topLevelSources } from './jsonSource.ts';
import type { LineError, LineErrorKind } from './types.ts';

export interface CandidateRecord {
  question: string;
  genText: string;
  /** Null when the line gives none but has a `gold` answer: ingest labels it by the gold answer. */
  label: 0 | 1 | null;
  questionId: string | null;
  answer: string | null;
  gold: string | null;
  source: string | null;
}

export type ParsedLine = { ok: true; record: CandidateRecord } | { ok: false; error: LineError };

const LINE = '(line)';

const shorten = (s: string): string => (s.length > 40 ? `${s.slice(0, 37)}...` : s);

/** A short rendering of an offending value for messages (`"yes"`, `2`, `null`, `an object`). */
export function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  // JSON.parse turns 1e400 into Infinity, which JSON.stringify would print as null.
  if (typeof v === 'number' && !Number.isFinite(v)) return 'a number too large';
  return shorten(JSON.stringify(v));
}

/** The source text of a top-level field, read from the line once and only when a number needs it. */
export type Sources = (field: string) => string;

/** Thrown by a field reader: the line is rejected for this field and reason. */
export class Reject {
  readonly field: string;
  readonly kind: LineErrorKind;
  readonly reason: string;
  constructor(field: string, kind: LineErrorKind, reason: string) {
    this.field = field;
    this.kind = kind;
    this.reason = reason;
  }
}

export function requiredString(obj: Record<string, unknown>, field: string): string {
  if (!Object.hasOwn(obj, field)) throw new Reject(field, 'missing_field', 'missing');
  const v = obj[field];
  if (typeof v !== 'string') throw new Reject(field, 'wrong_type', `expected a string, got ${describeValue(v)}`);
  return v;
}

/**
 * Optional fields: absent and null both mean "not given". Numbers are accepted where `numbers` says so,
 * as written in the file: ids beyond 2^53 stay distinct, "1.50" stays "1.50".
 */
export function optionalText(obj: Record<string, unknown>, field: string, numbers: boolean, source: Sources): string | null {
  const v = obj[field];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (numbers && typeof v === 'number') return source(field);
  throw new Reject(field, 'wrong_type', `expected a string${numbers ? ' or a number' : ''}, got ${describeValue(v)}`);
}

/** 0, 1, true or false; a number must be exactly 0 or 1 as written (1e-400 is not 0, 0.99999999999999999 is not 1). */
function readLabel(v: unknown, source: Sources): 0 | 1 {
  if (v === true) return 1;
  if (v === false) return 0;
  const expected = 'expected 0, 1, true or false, got';
  if (typeof v !== 'number') throw new Reject('label', 'bad_label', `${expected} ${describeValue(v)}`);
  const text = source('label');
  const exact = exactZeroOrOne(text);
  if (exact !== null) return exact;
  const note = !Number.isFinite(v) ? ' (a number too large)' : v === 0 || v === 1 ? ` (not exactly ${v}: it only rounds to ${v})` : '';
  throw new Reject('label', 'bad_label', `${expected} ${shorten(text)}${note}`);
}

/** One candidate line's fields. `requireLabel` false: a line with neither label nor gold is kept (label and gold null) for the caller to judge. */
export function readRecord(obj: Record<string, unknown>, source: Sources, requireLabel = true): CandidateRecord {
  const question = requiredString(obj, 'question');
  if (question.trim() === '') throw new Reject('question', 'empty_question', 'empty question');

  const textField = Object.hasOwn(obj, 'gen_text') ? 'gen_text' : 'generated_full_text';
  if (!Object.hasOwn(obj, textField)) throw new Reject('gen_text', 'missing_field', 'missing (expected "gen_text" or "generated_full_text")');
  const genText = requiredString(obj, textField);

  // Without a label, a gold answer labels the line (ingest compares the answers); without both, nothing does.
  // "label": null is no label, as null is "not given" in every optional field and in the other formats' labels.
  const hasLabel = obj.label !== undefined && obj.label !== null;
  const gold = hasLabel ? null : optionalText(obj, 'gold', true, source);
  if (requireLabel && !hasLabel && gold === null) throw new Reject('label', 'missing_field', 'missing');
  const label = hasLabel ? readLabel(obj.label, source) : null;

  // An empty id cannot identify a question; such lines are grouped by their text instead.
  const id = optionalText(obj, 'question_id', true, source);
  return {
    question,
    genText,
    label,
    questionId: id === null || id.trim() === '' ? null : id,
    answer: optionalText(obj, 'answer', true, source),
    gold: hasLabel ? optionalText(obj, 'gold', true, source) : gold,
    source: optionalText(obj, 'source', false, source),
  };
}

export type ParsedObject = { ok: true; value: Record<string, unknown>; source: Sources } | { ok: false; error: LineError };

/** A line (or a JSON array's element) as a JSON object, with its top-level fields' source text on demand; or why not. */
export function parseObject(text: string, line: number): ParsedObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // V8 quotes the input in its message; keep reports small even for megabyte lines.
    const short = msg.length > 160 ? `${msg.slice(0, 157)}...` : msg;
    const bom = text.indexOf('\uFEFF');
    // A BOM inside a line: two files joined without a newline between them (`cat a.jsonl b.jsonl`).
    const hint = bom < 0 ? '' : ` (a byte-order mark U+FEFF at character ${bom + 1}: were two files joined without a newline between them?)`;
    return { ok: false, error: { line, field: LINE, kind: 'invalid_json', reason: `invalid JSON: ${short}${hint}` } };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: { line, field: LINE, kind: 'not_object', reason: `expected a JSON object, got ${describeValue(value)}` } };
  }
  let sources: Map<string, string> | undefined;
  const source: Sources = (field) => (sources ??= topLevelSources(text)).get(field)!;
  return { ok: true, value: value as Record<string, unknown>, source };
}

/** Runs a field reader, turning its Reject into the line's error. */
export function readFields<T>(line: number, read: () => T): { ok: true; record: T } | { ok: false; error: LineError } {
  try {
    return { ok: true, record: read() };
  } catch (e) {
    if (!(e instanceof Reject)) throw e;
    return { ok: false, error: { line, field: e.field, kind: e.kind, reason: e.reason } };
  }
}

export function parseCandidateLine(text: string, line: number): ParsedLine {
  const parsed = parseObject(text, line);
  if (!parsed.ok) return parsed;
  return readFields(line, () => readRecord(parsed.value, parsed.source));
}
