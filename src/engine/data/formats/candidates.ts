/** One candidate per line (the app's own format): record.ts's rules, one sample per line. */
import { readRecord } from '../record.ts';
import type { ObjectReader, ReadContext } from './context.ts';

export function candidatesReader(ctx: ReadContext): ObjectReader {
  return (obj, source, line) => {
    const r = readRecord(obj, source, false);
    if (r.label !== null) ctx.mapped.labels.add('label');
    if (r.gold !== null) ctx.mapped.gold.add('gold');
    return {
      line,
      questionId: r.questionId,
      question: r.question,
      gold: r.gold,
      samples: [{ genText: r.genText, label: r.label, answer: r.answer, source: r.source }],
    };
  };
}
