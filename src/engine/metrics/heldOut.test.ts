import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { INSTALL_TORCH, PYTHON_DIR, findPython } from '../testing/pythonNode.ts';
import { heldOutGroups } from '../testing/heldOutGroups.ts';
import { allQuestionsFigures, evaluationFigures, hasBothLabels, heldOutFigures, ruleAccuracy, ruleScore } from './heldOut.ts';
import { SELECTION_RULES, selectionReport } from './selection.ts';
import type { ScoredGroup } from './summary.ts';

// Two groups with both labels, one all correct, one all wrong.
const groups: ScoredGroup[] = [
  { energies: [1, 0, 2], labels: [0, 1, 0], answers: ['a', 'b', 'a'] }, // Best-of-N 1, majority a → 0
  { energies: [0, 1], labels: [1, 0], answers: ['c', 'd'] }, // Best-of-N 1, majority tie → ½
  { energies: [0.5, 0.5], labels: [1, 1], answers: ['e', 'e'] }, // every rule 1
  { energies: [0, 3], labels: [0, 0], answers: ['f', null] }, // every rule 0
];

describe('heldOutFigures', () => {
  it('reports a rule over every held-out question and over those with both labels', () => {
    expect(groups.map(hasBothLabels)).toEqual([true, true, false, false]);
    expect(heldOutFigures(groups, 'bestOfN', 1)).toEqual({ allQuestions: { groups: 4, accuracy: 0.75 }, bothLabels: { groups: 2, accuracy: 1 } });
    expect(heldOutFigures(groups, 'majority', 1)).toEqual({ allQuestions: { groups: 4, accuracy: 1.5 / 4 }, bothLabels: { groups: 2, accuracy: 0.25 } });
    expect(heldOutFigures(groups, 'oracle', 1).bothLabels.accuracy).toBe(1); // why both-label figures alone mislead
    expect(heldOutFigures(groups, 'oracle', 1).allQuestions.accuracy).toBe(0.75);
    expect(ruleAccuracy([], 'bestOfN', 1)).toBeNaN();
  });

  it('scores each rule as the selection report does', () => {
    const report = selectionReport(groups, { seed: 1, resamples: 10 });
    for (const rule of SELECTION_RULES) {
      if (rule === 'selector')
        expect(report.rules.selector.accuracy).toBeNaN(); // 4 questions: not fitted
      else expect(ruleAccuracy(groups, rule, 1), rule).toBeCloseTo(report.rules[rule].accuracy, 15);
    }
  });

  it('python/eorm/metrics/held_out.py gives the same figures', () => {
    const UNFITTED = SELECTION_RULES.filter((r) => r !== 'selector'); // the selector needs fitted coefficients
    const code = [
      'import json, sys',
      'from eorm.metrics.summary import ScoredGroup',
      'from eorm.metrics.held_out import held_out_figures',
      'q = json.load(sys.stdin)',
      'gs = [ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in q["groups"]]',
      'print(json.dumps({r: held_out_figures(gs, r, 0.5) for r in q["rules"]}))',
    ].join('\n');
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const py = JSON.parse(execFileSync(python, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ groups, rules: UNFITTED }), encoding: 'utf8' }));
    for (const rule of UNFITTED) {
      const ts = heldOutFigures(groups, rule, 0.5);
      expect(py[rule].allQuestions.groups).toBe(ts.allQuestions.groups);
      expect(py[rule].allQuestions.accuracy).toBeCloseTo(ts.allQuestions.accuracy, 12);
      expect(py[rule].bothLabels.accuracy).toBeCloseTo(ts.bothLabels.accuracy, 12);
    }
  });
});

/**
 * `got` equals `want` (JSON values) with numbers to 1e-7 (float sums differ in the last bits; the fitted
 * maps' Newton steps carry them a little further).
 */
function expectClose(got: unknown, want: unknown, path = ''): void {
  if (typeof want === 'number' && typeof got === 'number') {
    expect(Math.abs(got - want), path).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(want)));
  } else if (want !== null && typeof want === 'object') {
    expect(got !== null && typeof got === 'object', path).toBe(true);
    expect(Object.keys(got as object), path).toEqual(Object.keys(want));
    for (const k of Object.keys(want)) expectClose((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${path}.${k}`);
  } else expect(got, path).toEqual(want);
}

describe('evaluationFigures', () => {
  // Enough questions to cross-fit (heldOutGroups: both labels, single-label ones, ties, missing answers), and the four above.
  const many = [...heldOutGroups(6, 60), ...groups];

  it('a validation: every figure over the questions with both labels, allQuestions over all of them; a test file: all over every question', () => {
    const val = evaluationFigures(groups, { seed: 3, subsetsPerN: 4, figuresOver: 'bothLabels' });
    expect(val.summary.nGroups).toBe(2);
    expect(val.selection.groups).toBe(2);
    expect(val.selection.allQuestions).toEqual(allQuestionsFigures(groups, val.selection, hasBothLabels));
    expect(val.allQuestionsAccuracy).toBe(val.selection.allQuestions!.rules[val.selection.recommended.rule]);
    const test = evaluationFigures(groups, { seed: 3, subsetsPerN: 4, figuresOver: 'allQuestions' });
    expect(test.summary.nGroups).toBe(4);
    expect(test.selection.allQuestions).toBeUndefined();
    expect(test.allQuestionsAccuracy).toBeCloseTo(test.selection.rules[test.selection.recommended.rule].accuracy, 15);
  });

  it('over all questions, a fitted rule keeps its out-of-fold figures on the reported questions and the final map scores the others', () => {
    const val = evaluationFigures(many, { seed: 3, subsetsPerN: 4, figuresOver: 'bothLabels' });
    const both = many.filter(hasBothLabels);
    const rest = many.filter((g) => !hasBothLabels(g));
    expect(val.selection.calibration.method).toBe('k-fold:5');
    const map = val.selection.probabilityMap;
    for (const rule of ['weightedVote', 'selector'] as const) {
      let sum = val.selection.rules[rule].accuracy * both.length;
      for (const g of rest) sum += ruleScore(g, rule, map.temperature, map.selector);
      expect(val.selection.allQuestions!.rules[rule], rule).toBeCloseTo(sum / many.length, 14);
    }
  });

  it('python/eorm/metrics/held_out.py evaluation_figures prints the same, both ways', () => {
    const code = [
      'import json, math, sys',
      'from eorm.metrics.summary import ScoredGroup',
      'from eorm.metrics.held_out import evaluation_figures',
      'q = json.load(sys.stdin)',
      'mk = lambda gs: [ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in gs]',
      'fin = lambda v: None if isinstance(v, float) and not math.isfinite(v) else {k: fin(x) for k, x in v.items()} if isinstance(v, dict) else [fin(x) for x in v] if isinstance(v, list) else v',
      'print(json.dumps(fin([evaluation_figures(mk(q["groups"]), 3, 4, both) for both in (True, False)])))',
    ].join('\n');
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python (${tried.join('; ')}). ${INSTALL_TORCH}`);
    for (const input of [groups, many]) {
      const py = JSON.parse(execFileSync(python, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ groups: input }), encoding: 'utf8' }));
      const ts = (['bothLabels', 'allQuestions'] as const).map((figuresOver) => evaluationFigures(input, { seed: 3, subsetsPerN: 4, figuresOver }));
      expectClose(JSON.parse(JSON.stringify(ts)), py);
    }
  });
});
