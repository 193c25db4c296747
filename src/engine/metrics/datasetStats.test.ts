import { describe, expect, it } from 'vitest';
import { disagreementsJsonl } from '../data/answers/answerStats.ts';
import { datasetStats, tokenLengthStats } from './datasetStats.ts';
import { bytesStream, readDataset } from '../data/testing/node.ts';

const lines = [
  { question: 'A', gen_text: 'so 5', label: 0 },
  { question: 'A', gen_text: 'so 7', label: 1 },
  { question: 'B', gen_text: 'pay', answer: '$1,000', label: 1 },
  { question: 'A', gen_text: 'A: 7', label: 1 },
  { question: 'B', gen_text: '#### 1000.00', label: 0 },
  { question: 'B', gen_text: 'The answer is 9.', label: 0 },
  { question: 'C', gen_text: 'no idea', label: 0 },
  { question: 'C', gen_text: 'none', label: 0 },
  { question: 'D', gen_text: '4', label: 1 },
];

describe('datasetStats', () => {
  it('computes every panel figure from a small dataset', async () => {
    const text = `${lines.map((o) => JSON.stringify(o)).join('\n')}\n\n{bad`;
    const s = datasetStats(await readDataset(bytesStream(text)));
    expect(s).toEqual({
      lines: { read: 11, accepted: 9, rejected: 1, blank: 1, invalidUtf8: 0 },
      groups: 4,
      candidates: 9,
      candidatesPerGroup: {
        min: 1,
        median: 2.5,
        max: 3,
        histogram: [
          { size: 1, groups: 1 },
          { size: 2, groups: 1 },
          { size: 3, groups: 2 },
        ],
      },
      shareCorrect: 4 / 9,
      groupsBothLabels: 2,
      groupsAllCorrect: 1,
      groupsAllWrong: 1,
      // A: vote 7 (right), first wrong; B: "$1,000" = "1000.00" wins, but one of its candidates is labelled
      // right and one wrong, so it counts as ½ (the share of its candidates labelled correct), first right;
      // C: no answer, so the vote counts as wrong; D: one right candidate.
      oracle: 3 / 4,
      firstCandidate: 2 / 4,
      majorityVote: 2.5 / 4,
      candidatesWithAnswer: 7,
      // Texts with an answer: all but "pay", "no idea", "none". Distinct answers A 2, B 2, C 0, D 1. The
      // answer field "$1,000" disagrees with its text "pay", which states none.
      answers: {
        shareWithTextAnswer: 6 / 9,
        medianDistinctAnswers: 1.5,
        answerFieldDisagreements: 1,
        labelledFromGold: 0,
        labelAndGold: 0,
        labelGoldDisagreements: 0,
        disagreements: [],
      },
    });
  });

  it('counts lines whose label disagrees with their gold answer and lists them for the download', async () => {
    const gold = [
      { question: 'G', question_id: 'g1', gen_text: 'Answer: 18', label: 1, gold: '#### 18' }, // agrees
      { question: 'G', question_id: 'g1', gen_text: 'Answer: 17', label: 1, gold: '#### 18' }, // label says right, gold wrong
      { question: 'G', question_id: 'g1', gen_text: 'Answer: $18.00', label: 0, gold: '#### 18' }, // label says wrong, gold right
      { question: 'G', question_id: 'g1', gen_text: 'Answer: 17', gold: '#### 18' }, // labelled from gold
      { question: 'G', question_id: 'g1', gen_text: 'Answer: 18', label: 0 }, // no gold: nothing to compare
    ];
    const s = datasetStats(await readDataset(bytesStream(gold.map((o) => JSON.stringify(o)).join('\n'))));
    expect(s.answers.labelledFromGold).toBe(1);
    expect(s.answers.labelAndGold).toBe(3);
    expect(s.answers.labelGoldDisagreements).toBe(2);
    expect(disagreementsJsonl(s.answers.disagreements)).toBe(
      '{"line":2,"question_id":"g1","label":1,"answer_key":"17","gold":"#### 18"}\n{"line":3,"question_id":"g1","label":0,"answer_key":"18","gold":"#### 18"}\n',
    );
  });

  it('scores a vote tie as the expected accuracy of a random pick among the tied answers, as evaluations do', async () => {
    const tie = [
      { question: 'T', gen_text: 'A: 1', label: 0 },
      { question: 'T', gen_text: 'A: 2', label: 1 },
    ];
    const s = datasetStats(await readDataset(bytesStream(tie.map((o) => JSON.stringify(o)).join('\n'))));
    expect(s.majorityVote).toBe(0.5);
  });
});

describe('tokenLengthStats', () => {
  it('bins lengths up to maxLen and summarises them', () => {
    const lengths = [1, 3, 10, 10, 5];
    const offsets = Uint32Array.from([0, ...lengths.map((_, i) => lengths.slice(0, i + 1).reduce((a, b) => a + b, 0))]);
    const s = tokenLengthStats({ maxLen: 10, tokens: new Uint16Array(29), offsets, truncated: 1 }, 10, 4);
    expect(s).toEqual({
      maxLen: 10,
      truncated: 1,
      min: 1,
      median: 5,
      max: 10,
      mean: 29 / 5,
      histogram: { edges: [0, 3, 6, 9, 10], counts: [1, 2, 0, 2] },
    });
  });

  it('uses 32 bins of equal width for the default maxLen', () => {
    const s = tokenLengthStats({ maxLen: 2048, tokens: new Uint16Array(2048), offsets: Uint32Array.from([0, 2048]), truncated: 1 });
    expect(s.histogram.counts.length).toBe(32);
    expect(s.histogram.edges[1]).toBe(64);
    expect(s.histogram.counts[31]).toBe(1);
  });

  it('counts truncation against a model maxLen below the tokenization cap, and spans the longest length', () => {
    // lengths 4, 7, 9, 20
    const offsets = Uint32Array.from([0, 4, 11, 20, 40]);
    const s = tokenLengthStats({ maxLen: 20, tokens: new Uint16Array(40), offsets, truncated: 1 }, 8, 5);
    // 9 and 20 exceed 8; the one cut at the cap (20) is among them.
    expect(s.truncated).toBe(2);
    expect(s.maxLen).toBe(8);
    expect(s.histogram.edges).toEqual([0, 4, 8, 12, 16, 20]);
    // [4,8): 4 and 7; [8,12): 9; the last bin also holds 20.
    expect(s.histogram.counts).toEqual([0, 2, 1, 0, 1]);
    expect(() => tokenLengthStats({ maxLen: 20, tokens: new Uint16Array(40), offsets, truncated: 1 }, 21)).toThrow(/cap/);
  });
});
