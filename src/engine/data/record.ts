/** Validates one JSONL line into a candidate record, or says precisely why it is rejected. */
import type { LineError, LineErrorKind } from './types.ts';

export interface CandidateRecord {
  question: string;
  genText: string;
  label: 0 | 1;
  questionId: string | null;
  answer: string | null;
  gold: string | null;
  source: string | null;
}

export type ParsedLine = { ok: true; record: CandidateRecord } | { ok: false; error: LineError };

const LINE = '(line)';

/** A short rendering of an offending value for messages (`"yes"`, `2`, `null`, `an object`). */
export function describeValue(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v !== null && typeof v === 'object') return 'an object';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

class Reject {
  readonly field: string;
  readonly kind: LineErrorKind;
  readonly reason: string;
  constructor(field: string, kind: LineErrorKind, reason: string) {
    this.field = field;
    this.kind = kind;
    this.reason = reason;
  }
}

function requiredString(obj: Record<string, unknown>, field: string): string {
  if (!Object.hasOwn(obj, field)) throw new Reject(field, 'missing_field', 'missing');
  const v = obj[field];
  if (typeof v !== 'string') throw new Reject(field, 'wrong_type', `expected a string, got ${describeValue(v)}`);
  return v;
}

/** Optional fields: absent and null both mean "not given"; numbers are accepted where `numbers` says so. */
function optionalText(obj: Record<string, unknown>, field: string, numbers: boolean): string | null {
  const v = obj[field];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  if (numbers && typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new Reject(field, 'wrong_type', `expected a string${numbers ? ' or a number' : ''}, got ${describeValue(v)}`);
}

function readRecord(obj: Record<string, unknown>): CandidateRecord {
  const question = requiredString(obj, 'question');
  if (question.trim() === '') throw new Reject('question', 'empty_question', 'empty question');

  const textField = Object.hasOwn(obj, 'gen_text') ? 'gen_text' : 'generated_full_text';
  if (!Object.hasOwn(obj, textField)) throw new Reject('gen_text', 'missing_field', 'missing (expected "gen_text" or "generated_full_text")');
  const genText = requiredString(obj, textField);

  if (!Object.hasOwn(obj, 'label')) throw new Reject('label', 'missing_field', 'missing');
  const rawLabel = obj.label;
  let label: 0 | 1;
  if (rawLabel === 1 || rawLabel === true) label = 1;
  else if (rawLabel === 0 || rawLabel === false) label = 0;
  else throw new Reject('label', 'bad_label', `expected 0, 1, true or false, got ${describeValue(rawLabel)}`);

  // An empty id cannot identify a question; such lines are grouped by their text instead.
  const id = optionalText(obj, 'question_id', true);
  return {
    question,
    genText,
    label,
    questionId: id === null || id.trim() === '' ? null : id,
    answer: optionalText(obj, 'answer', true),
    gold: optionalText(obj, 'gold', true),
    source: optionalText(obj, 'source', false),
  };
}

export function parseCandidateLine(text: string, line: number): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    // V8 quotes the input in its message; keep reports small even for megabyte lines.
    const short = msg.length > 160 ? `${msg.slice(0, 157)}...` : msg;
    return { ok: false, error: { line, field: LINE, kind: 'invalid_json', reason: `invalid JSON: ${short}` } };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: { line, field: LINE, kind: 'not_object', reason: `expected a JSON object, got ${describeValue(value)}` } };
  }
  try {
    return { ok: true, record: readRecord(value as Record<string, unknown>) };
  } catch (e) {
    if (!(e instanceof Reject)) throw e;
    return { ok: false, error: { line, field: e.field, kind: e.kind, reason: e.reason } };
  }
}
