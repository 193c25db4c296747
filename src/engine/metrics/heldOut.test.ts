import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { INSTALL_TORCH, PYTHON_DIR, findPython } from '../testing/pythonNode.ts';
import { hasBothLabels, heldOutFigures, ruleAccuracy } from './heldOut.ts';
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
    const report = selectionReport(groups, { seed: 1, resamples: 10, fitOn: null });
    for (const rule of SELECTION_RULES) expect(ruleAccuracy(groups, rule, 1), rule).toBeCloseTo(report.rules[rule].accuracy, 15);
  });

  it('python/eorm/held_out.py gives the same figures', () => {
    const code = [
      'import json, sys',
      'from eorm.metrics import ScoredGroup',
      'from eorm.held_out import held_out_figures',
      'q = json.load(sys.stdin)',
      'gs = [ScoredGroup(g["energies"], g["labels"], g["answers"]) for g in q["groups"]]',
      'print(json.dumps({r: held_out_figures(gs, r, 0.5) for r in q["rules"]}))',
    ].join('\n');
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const py = JSON.parse(execFileSync(python, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ groups, rules: SELECTION_RULES }), encoding: 'utf8' }));
    for (const rule of SELECTION_RULES) {
      const ts = heldOutFigures(groups, rule, 0.5);
      expect(py[rule].allQuestions.groups).toBe(ts.allQuestions.groups);
      expect(py[rule].allQuestions.accuracy).toBeCloseTo(ts.allQuestions.accuracy, 12);
      expect(py[rule].bothLabels.accuracy).toBeCloseTo(ts.bothLabels.accuracy, 12);
    }
  });
});
