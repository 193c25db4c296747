/**
 * Both figures of a validation reach the UI (issue 20): the run's validations and Evaluate report the
 * summary and the selection rules over the held-out questions with both labels, each rule over every
 * held-out question (selection.allQuestions), and allQuestionsAccuracy, the recommended rule's.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitGroups } from '../engine/data/split.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { loadData } from './data/dataLoader.ts';
import type { EvalReport } from './protocols/models.ts';
import { file, harness, sampleLines, tinySettings } from './testing/sessionHarness.ts';

const text = sampleLines(0, 200);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

function expectBothFigures(report: EvalReport, held: number, both: number): void {
  const sel = report.selection!;
  expect(report.summary.nGroups).toBe(both);
  expect(sel.groups).toBe(both);
  expect(sel.rules.oracle.accuracy).toBe(1);
  expect(sel.allQuestions!.groups).toBe(held);
  expect(sel.allQuestions!.rules.oracle).toBeLessThan(1);
  expect(report.allQuestionsAccuracy).toBe(sel.allQuestions!.rules[sel.recommended.rule]);
}

describe('Session: accuracy over all held-out questions and over those with both labels', () => {
  it('fills both in the run’s validations and in Evaluate', async () => {
    const d = await loadData('train', file(text), inProcessPool(), 0, () => undefined);
    const split = splitGroups(d.view, { seed: 42, kind: 'all' });
    const labels = (g: number) => Array.from(d.view.labels.subarray(d.view.groupStart[g], d.view.groupStart[g + 1]));
    const both = Array.from(split.val).filter((g) => labels(g).includes(0) && labels(g).includes(1)).length;
    expect(both).toBeLessThan(split.val.length);

    const h = harness();
    await h.run({ type: 'loadData', role: 'train', source: file(text) });
    await h.run({ type: 'start', settings: tinySettings({ epochs: 1, groupsPerStep: 8 }) });
    await h.runEnd();
    const runReports = h.all('evaluation').map((e) => e.report);
    expect(runReports.length).toBeGreaterThanOrEqual(2);
    for (const r of runReports) expectBothFigures(r, split.val.length, both);

    await h.run({ type: 'evaluate', set: 'val' });
    const asked = h.last('evaluation')!.report;
    expect(asked.origin).toBe('request');
    expectBothFigures(asked, split.val.length, both);
  });
});
