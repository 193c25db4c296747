/**
 * lm-evaluation-harness `--log_samples` output (`samples_<task>_<date>.jsonl`, or the older indented JSON
 * array): the question from `doc`, the samples from `resps[0]` (the task's repeats), the gold answer from
 * `target`. The harness writes one line per (doc, filter): a doc_id already read is skipped and counted.
 */
import { Reject, describeValue, optionalText, requiredString } from '../record.ts';
import type { ObjectReader, ReadContext } from './context.ts';
import { QUESTION_FIELDS, firstField, goldText, isObject, readId } from './fields.ts';

export function isLmEval(obj: Record<string, unknown>): boolean {
  return Object.hasOwn(obj, 'doc_id') && Object.hasOwn(obj, 'resps');
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
    const resps = obj.resps;
    const repeats = Array.isArray(resps) ? resps[0] : undefined;
    if (!Array.isArray(repeats)) throw new Reject('resps', 'wrong_type', `expected a list holding the list of responses, got ${describeValue(resps)}`);
    const samples = repeats.map((r, i) => {
      if (typeof r !== 'string') throw new Reject(`resps[0][${i}]`, 'wrong_type', `expected a string, got ${describeValue(r)}`);
      return { genText: r, label: null, answer: null, source: null };
    });
    const gold = goldText(optionalText(obj, 'target', true, source));
    seen.add(docId);
    ctx.mapped.question.add(`doc.${qField}`);
    ctx.mapped.samples.add('resps[0]');
    if (gold !== null) ctx.mapped.gold.add('target');
    return { line, questionId: docId, question, gold, samples };
  };
}
