/**
 * One question per line (or array element) with its samples: the shapes generation scripts write
 * (math evaluation harnesses, OVM-style and "Large Language Monkeys"-style sample files, per-model results).
 */
import { Reject, describeValue, optionalText, requiredString } from '../record.ts';
import type { RawSample } from './collector.ts';
import { type ObjectReader, type ReadContext, markerSeen } from './context.ts';
import {
  GENERATOR_FIELDS,
  GOLD_FIELDS,
  ID_FIELDS,
  LABELS_FIELDS,
  QUESTION_FIELDS,
  SAMPLES_FIELDS,
  SAMPLE_LABEL_FIELDS,
  SAMPLE_TEXT_FIELDS,
  firstField,
  goldText,
  isObject,
  nonEmpty,
  readId,
  readSampleLabel,
} from './fields.ts';

/** Whether an object looks like one question with its samples. */
export function isGrouped(obj: Record<string, unknown>): boolean {
  const samples = firstField(obj, SAMPLES_FIELDS);
  return samples !== null && firstField(obj, QUESTION_FIELDS) !== null && (Array.isArray(obj[samples]) || typeof obj[samples] === 'string');
}

function sampleText(s: Record<string, unknown>, field: string): string {
  const name = firstField(s, SAMPLE_TEXT_FIELDS);
  if (name !== null) {
    if (typeof s[name] !== 'string') throw new Reject(`${field}.${name}`, 'wrong_type', `expected a string, got ${describeValue(s[name])}`);
    return s[name] as string;
  }
  const message = s.message;
  if (isObject(message) && typeof message.content === 'string') return message.content;
  throw new Reject(field, 'missing_field', `no text: expected a string, or an object with "response", "text", "content" or "message.content"`);
}

export function groupedReader(ctx: ReadContext): ObjectReader {
  const marker = (text: string) => markerSeen(ctx, text);
  return (obj, source, line) => {
    const qField = firstField(obj, QUESTION_FIELDS) ?? 'question';
    const question = requiredString(obj, qField);
    if (question.trim() === '') throw new Reject(qField, 'empty_question', 'empty question');
    const sField = firstField(obj, SAMPLES_FIELDS)!;
    const rawSamples = typeof obj[sField] === 'string' ? [obj[sField]] : nonEmpty(obj[sField] as unknown[], sField);
    const lField = firstField(obj, LABELS_FIELDS);
    let labels: unknown[] | null = null;
    if (lField !== null) {
      const v = obj[lField];
      labels = Array.isArray(v) ? v : rawSamples.length === 1 ? [v] : null;
      if (labels === null) throw new Reject(lField, 'wrong_type', `expected a list of ${rawSamples.length} labels (one per sample), got ${describeValue(v)}`);
      if (labels.length !== rawSamples.length)
        throw new Reject(lField, 'wrong_type', `${labels.length} labels for ${rawSamples.length} samples in "${sField}"`);
    }
    const generatorField = firstField(obj, GENERATOR_FIELDS);
    const generator = generatorField === null ? null : optionalText(obj, generatorField, false, source);
    const gField = firstField(obj, GOLD_FIELDS);
    const gold = goldText(gField === null ? null : optionalText(obj, gField, true, source));
    const samples: RawSample[] = rawSamples.map((s, i) => {
      const field = `${sField}[${i}]`;
      let label = labels === null ? null : readSampleLabel(labels[i], `${lField}[${i}]`, marker);
      let genText: string;
      if (typeof s === 'string') genText = s;
      else if (isObject(s)) {
        genText = sampleText(s, field);
        const own = firstField(s, SAMPLE_LABEL_FIELDS);
        if (label === null && own !== null) {
          label = readSampleLabel(s[own], `${field}.${own}`, marker);
          ctx.mapped.labels.add(`${sField}[].${own}`);
        }
      } else throw new Reject(field, 'wrong_type', `expected a string or an object, got ${describeValue(s)}`);
      return { genText, label, answer: null, source: generator };
    });
    ctx.mapped.question.add(qField);
    ctx.mapped.samples.add(sField);
    if (lField !== null) ctx.mapped.labels.add(lField);
    if (gold !== null) ctx.mapped.gold.add(gField!);
    return { line, questionId: readId(obj, firstField(obj, ID_FIELDS), source), question, gold, samples };
  };
}
