/** The data panel's sentence about what the readers detected and mapped. */
import type { DataFormat, FormatMapping, LabelsFrom } from '../types.ts';
import type { ReadContext } from './context.ts';

const int = (n: number) => n.toLocaleString('en-US');
const count = (n: number, what: string) => `${int(n)} ${what}${n === 1 ? '' : 's'}`;
const names = (s: Set<string>) => [...s].map((f) => `\`${f}\``).join(', ');

const TITLES: Record<DataFormat, [string, string, string]> = {
  candidates: ['one candidate per line', 'questions', 'candidates'],
  grouped: ['one question per line', 'questions', 'samples'],
  'json-array': ['JSON array of questions', 'questions', 'samples'],
  'lm-eval': ['lm-evaluation-harness samples', 'docs', 'repeats'],
  'chat-batch': ['chat completion batch', 'requests', 'choices'],
  'multi-file': ['files joined', 'questions', 'candidates'],
};

export function describeMapping(
  format: DataFormat,
  files: number,
  groupSizes: number[],
  ctx: ReadContext,
  labelsFrom: LabelsFrom,
): FormatMapping {
  const [title, groupWord, sampleWord] = TITLES[format];
  const total = groupSizes.reduce((a, b) => a + b, 0);
  const uniform = groupSizes.length > 0 && groupSizes.every((n) => n === groupSizes[0]);
  const shape = uniform ? `${int(groupSizes.length)} ${groupWord} × ${int(groupSizes[0])} ${sampleWord}` : `${int(groupSizes.length)} ${groupWord}, ${int(total)} ${sampleWord}`;
  const head = format === 'multi-file' ? `${files} ${title}` : title;
  const from: string[] = [];
  if (ctx.mapped.question.size > 0 && format !== 'candidates') from.push(`questions from ${names(ctx.mapped.question)}`);
  if (ctx.mapped.samples.size > 0) from.push(`samples from ${names(ctx.mapped.samples)}`);
  const labels =
    labelsFrom === 'none'
      ? 'no labels or gold answers: a picks set'
      : labelsFrom === 'gold'
        ? `labels from ${names(ctx.mapped.gold)}`
        : `labels from ${names(ctx.mapped.labels)}${ctx.mapped.gold.size > 0 ? ` (gold in ${names(ctx.mapped.gold)})` : ''}`;
  const notes: string[] = [];
  if (ctx.invalidMarkers > 0) notes.push(`${count(ctx.invalidMarkers, 'correctness marker')} such as "[invalid]" counted as incorrect`);
  if (ctx.duplicateLines > 0) notes.push(`${count(ctx.duplicateLines, 'repeated doc_id line')} (other filters) skipped`);
  if (ctx.unansweredRequests > 0) notes.push(`${count(ctx.unansweredRequests, 'request')} without an output line`);
  const description = `${head}: ${shape}${from.length > 0 ? ` (${from.join('; ')})` : ''}; ${[labels, ...notes].join('; ')}`;
  return { description, invalidMarkers: ctx.invalidMarkers, duplicateLines: ctx.duplicateLines, unansweredRequests: ctx.unansweredRequests };
}
