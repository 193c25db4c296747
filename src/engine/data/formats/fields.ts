/**
 * The field names the readers look for, in the order they are tried (python/eorm/formats/fields.py is the
 * twin), and the small readers they share.
 */
import { Reject, describeValue, optionalText, type Sources } from '../record.ts';

export const QUESTION_FIELDS = ['question', 'problem', 'prompt', 'input'] as const;
export const SAMPLES_FIELDS = ['responses', 'completions', 'samples', 'outputs', 'output', 'answers', 'code'] as const;
export const SAMPLE_TEXT_FIELDS = ['response', 'text', 'content'] as const;
export const LABELS_FIELDS = ['labels', 'label', 'is_corrects', 'correctness', 'score'] as const;
export const SAMPLE_LABEL_FIELDS = ['label', 'is_correct'] as const;
export const GOLD_FIELDS = ['gold', 'ground_truth', 'gt', 'gt_answer', 'reference', 'answer'] as const;
export const ID_FIELDS = ['question_id', 'id', 'idx', 'unique_id', 'problem_id', 'task_id'] as const;
export const GENERATOR_FIELDS = ['generator', 'model'] as const;

/** The first of `names` the object has (null and absent are both "not there"). */
export function firstField(obj: Record<string, unknown>, names: readonly string[]): string | null {
  for (const n of names) if (obj[n] !== undefined && obj[n] !== null) return n;
  return null;
}

/**
 * A gold answer as given, a worked solution cut to what follows its last `####` ("… #### 18" gives "18"),
 * and a bare answer behind a `#` marker (evaluation suites write GSM8K's gold as "# 18") without it.
 */
export function goldText(gold: string | null): string | null {
  if (gold === null) return null;
  const at = gold.lastIndexOf('####');
  if (at >= 0) return gold.slice(at + 4).trim();
  const marked = /^\s*#+[ \t]*([^#\n]+)$/.exec(gold);
  return marked === null ? gold : marked[1].trim();
}

/** A question id (string, or a number as written), or null when absent or blank. */
export function readId(obj: Record<string, unknown>, field: string | null, source: Sources): string | null {
  if (field === null) return null;
  const id = optionalText(obj, field, true, source);
  return id === null || id.trim() === '' ? null : id;
}

/** A correctness value: true/false or exactly 0/1; any string (e.g. "[invalid]", even "1") is a marker counted as incorrect. */
export function readSampleLabel(v: unknown, field: string, onMarker: (text: string) => void): 0 | 1 | null {
  if (v === undefined || v === null) return null;
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  if (typeof v === 'string') {
    onMarker(v);
    return 0;
  }
  throw new Reject(field, 'bad_label', `expected true, false, 0 or 1 (or a marker such as "[invalid]"), got ${describeValue(v)}`);
}

/** A chat message's text: a string, or the text parts of a content array. */
export function messageText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = content.filter((p): p is { text: string } => p !== null && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string');
  return parts.length === 0 ? null : parts.map((p) => p.text).join('\n');
}

/** A line's list of samples must hold one: a question without any adds no candidate to rank. */
export function nonEmpty<T>(samples: T[], field: string, what = 'samples'): T[] {
  if (samples.length === 0) throw new Reject(field, 'missing_field', `no ${what}: the list is empty; give at least one, or leave the line out`);
  return samples;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
