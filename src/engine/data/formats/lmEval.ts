/**
 * lm-evaluation-harness `--log_samples` output (`samples_<task>_<date>.jsonl`, or the older indented JSON
 * array): the question from `doc`, the samples from `resps[0]` (the task's repeats), the gold answer from
 * `target`. The harness writes one line per (doc, filter): a doc_id already read is skipped and counted.
 */
import { Reject, describeValue, optionalText, requiredString } from '../record.ts';
import type { ObjectReader, ReadContext } from './context.ts';
import { QUESTION_FIELDS, firstField, goldText, isObject, nonEmpty, readId } from './fields.ts';

export function isLmEval(obj: Record<string, unknown>): boolean {
  return Object.hasOwn(obj, 'doc_id') && Object.hasOwn(obj, 'resps');
}

/**
 * The harness writes `resps` as a list holding the task's list of repeats (`[["…", "…"]]`); a flat list of
 * strings (`["…", "…"]`, as scripts that rewrite the file do) is the repeats themselves.
 */
function responses(resps: unknown): { repeats: unknown[]; field: string } {
  if (!Array.isArray(resps))
    throw new Reject('resps', 'wrong_type', `expected a list of responses (the harness writes [["…", "…"]]), got ${describeValue(resps)}`);
  const flat = typeof nonEmpty(resps, 'resps', 'responses')[0] === 'string';
  if (flat) return { repeats: resps, field: 'resps' };
  if (!Array.isArray(resps[0])) throw new Reject('resps[0]', 'wrong_type', `expected a list of response strings, got ${describeValue(resps[0])}`);
  return { repeats: nonEmpty(resps[0], 'resps[0]', 'responses'), field: 'resps[0]' };
}

export function lmEvalReader(ctx: ReadContext): ObjectReader {
  const seen = new Set<string>();
  return (obj, source, line) => {
    const docId = readId(obj, 'doc_id', source);
    if (docId === null) throw new Reject('doc_id', 'missing_field', 'missing');
    if (seen.has(docId)) {
      ctx.duplicateLines++;
      return null;
    }
    const doc = obj.doc;
    if (!isObject(doc)) throw new Reject('doc', 'wrong_type', `expected an object, got ${describeValue(doc)}`);
    const qField = firstField(doc, QUESTION_FIELDS);
    if (qField === null) throw new Reject('doc', 'missing_field', 'no question: expected "question", "problem", "prompt" or "input" in "doc"');
    const question = requiredString(doc, qField);
    if (question.trim() === '') throw new Reject(`doc.${qField}`, 'empty_question', 'empty question');
    const { repeats, field } = responses(obj.resps);
    const samples = repeats.map((r, i) => {
      if (typeof r !== 'string') throw new Reject(`${field}[${i}]`, 'wrong_type', `expected a string, got ${describeValue(r)}`);
      return { genText: r, label: null, answer: null, source: null };
    });
    const gold = goldText(optionalText(obj, 'target', true, source));
    seen.add(docId);
    ctx.mapped.question.add(`doc.${qField}`);
    ctx.mapped.samples.add(field);
    if (gold !== null) ctx.mapped.gold.add('target');
    return { line, questionId: docId, question, gold, samples };
  };
}
