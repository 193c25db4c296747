/** The data panel's sentence about what the readers detected and mapped. */
import type { FormatMapping, LabelsFrom } from '../types.ts';
import type { ReadContext } from './context.ts';
import { FORMAT_BY_NAME, type FormatName } from './table.ts';

const int = (n: number) => n.toLocaleString('en-US');
const count = (n: number, what: string) => `${int(n)} ${what}${n === 1 ? '' : 's'}`;
const names = (s: Set<string>) => [...s].map((f) => `\`${f}\``).join(', ');

export function describeMapping(format: FormatName, files: number, groupSizes: number[], ctx: ReadContext, labelsFrom: LabelsFrom): FormatMapping {
  const [title, groupWord, sampleWord] = FORMAT_BY_NAME[format].describe;
  const total = groupSizes.reduce((a, b) => a + b, 0);
  const uniform = groupSizes.length > 0 && groupSizes.every((n) => n === groupSizes[0]);
  const shape = `${count(groupSizes.length, groupWord)}${uniform ? ` × ${count(groupSizes[0], sampleWord)}` : `, ${count(total, sampleWord)}`}`;
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
  const markers = ctx.invalidMarkers - ctx.textLabels;
  if (markers > 0) notes.push(`${count(markers, 'correctness marker')} such as "[invalid]" counted as incorrect`);
  // A label written as text ("1", "True") is a marker too: easy to mistake for a label, so said apart.
  if (ctx.textLabels > 0)
    notes.push(`${count(ctx.textLabels, 'label')} written as text (such as "1" or "True") counted as incorrect: write labels as true/false or 0/1`);
  if (ctx.duplicateLines > 0) notes.push(`${count(ctx.duplicateLines, 'repeated doc_id line')} (other filters) skipped`);
  if (ctx.unansweredRequests > 0) notes.push(`${count(ctx.unansweredRequests, 'request')} without an output line`);
  const description = `${head}: ${shape}${from.length > 0 ? ` (${from.join('; ')})` : ''}; ${[labels, ...notes].join('; ')}`;
  return { description, invalidMarkers: ctx.invalidMarkers, duplicateLines: ctx.duplicateLines, unansweredRequests: ctx.unansweredRequests };
}
