import { describe, expect, it } from 'vitest';
import { keepCandidates } from './keptCandidates.ts';
import type { Dataset, TrainingView } from './types.ts';

/** Two groups: g0 with three candidates (tokens of lengths 2, 3, 4), g1 with two (lengths 4, 1); maxLen 4. */
function data() {
  const cand = (line: number, label: 0 | 1, source: string | null) => ({
    line,
    genText: `t${line}`,
    label,
    labelFromGold: false,
    goldMatch: null,
    answer: null,
    answerKey: `a${line}`,
    textAnswerKey: `a${line}`,
    gold: null,
    source,
  });
  const dataset: Dataset = {
    groups: [
      { questionId: '1', question: 'q1', candidates: [cand(1, 1, 'p'), cand(2, 0, 'q'), cand(3, 0, 'p')] },
      { questionId: '2', question: 'q2', candidates: [cand(4, 1, 'q'), cand(5, 0, null)] },
    ],
    candidateCount: 5,
    report: { bytesRead: 0, linesRead: 5, accepted: 5, rejected: 0, blank: 0, invalidUtf8Lines: 0, errors: [] },
  };
  const view: TrainingView = {
    tokens: {
      maxLen: 4,
      tokens: Uint16Array.from([10, 11, 20, 21, 22, 30, 31, 32, 33, 40, 41, 42, 43, 50]),
      offsets: Uint32Array.from([0, 2, 5, 9, 13, 14]),
      truncated: 2,
    },
    labels: Uint8Array.from([1, 0, 0, 1, 0]),
    groupStart: Uint32Array.from([0, 3, 5]),
    sources: { names: ['p', 'q'], index: Int32Array.from([0, 1, 0, 1, -1]) },
  };
  return { dataset, view, answers: ['a1', 'a2', 'a3', 'a4', 'a5'], name: 'x.jsonl' };
}

describe('keepCandidates', () => {
  it('keeps every group in place with only its kept candidates, tokens, labels, answers and sources', () => {
    const out = keepCandidates(data(), Uint8Array.from([1, 0, 1, 0, 1]));
    expect(Array.from(out.view.groupStart)).toEqual([0, 2, 3]);
    expect(Array.from(out.view.labels)).toEqual([1, 0, 0]);
    expect(Array.from(out.view.tokens.offsets)).toEqual([0, 2, 6, 7]);
    expect(Array.from(out.view.tokens.tokens)).toEqual([10, 11, 30, 31, 32, 33, 50]);
    expect(out.view.tokens.truncated).toBe(1); // the kept candidate at maxLen
    expect(out.answers).toEqual(['a1', 'a3', 'a5']);
    expect(Array.from(out.view.sources!.index)).toEqual([0, 0, -1]);
    expect(out.view.sources!.names).toEqual(['p', 'q']);
    expect(out.dataset.groups.map((g) => g.candidates.map((c) => c.line))).toEqual([[1, 3], [5]]);
    expect(out.dataset.candidateCount).toBe(3);
    expect(out.name).toBe('x.jsonl'); // other fields ride along
  });

  it('a group may be left empty; the input is not changed', () => {
    const d = data();
    const out = keepCandidates(d, Uint8Array.from([0, 1, 0, 0, 0]));
    expect(Array.from(out.view.groupStart)).toEqual([0, 1, 1]);
    expect(out.dataset.groups[1].candidates).toEqual([]);
    expect(d.view.labels.length).toBe(5);
    expect(d.dataset.groups[0].candidates.length).toBe(3);
  });

  it('rejects a keep mask of the wrong length', () => {
    expect(() => keepCandidates(data(), new Uint8Array(4))).toThrow(/keep has 4 entries for 5 candidates/);
  });
});
