/** One candidate per line (the app's own format): record.ts's rules, one sample per line. */
import { readRecord } from '../record.ts';
import type { ObjectReader, ReadContext } from './context.ts';

export function candidatesReader(ctx: ReadContext): ObjectReader {
  return (obj, source, line) => {
    const r = readRecord(obj, source, false);
    if (r.label !== null) ctx.mapped.labels.add('label');
    if (r.gold !== null) ctx.mapped.gold.add('gold');
    const scores = numericFields(obj);
    return {
      line,
      questionId: r.questionId,
      question: r.question,
      gold: r.gold,
      samples: [{ genText: r.genText, label: r.label, answer: r.answer, source: r.source, ...(scores ? { scores } : {}) }],
    };
  };
}

/** Fields the record's own rules read: never a score. */
const RECORD_FIELDS = new Set(['label', 'question_id', 'id', 'answer', 'gold']);

/** The line's finite numeric fields besides the record's own, or undefined when it has none. */
function numericFields(obj: Record<string, unknown>): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number' && Number.isFinite(v) && !RECORD_FIELDS.has(k)) (out ??= {})[k] = v;
  }
  return out;
}
