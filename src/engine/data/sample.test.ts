import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { candidateAnswerKey } from './answers/answers.ts';
import { datasetStats } from '../metrics/datasetStats.ts';
import { fileStream, readDataset, repoSamplePath } from './testing/node.ts';

describe('built-in sample (public/sample/gsm8k_gpt3_openai_4cand.jsonl)', () => {
  // The published vote figure, 47.3% (624 / 1319), broke ties towards the answer seen first; every vote is now
  // scored as evaluations score it (tied answers: the expected accuracy of a random pick among them), 48.2%.
  it('gives the published figures: 5,276 lines, 1,319 groups, 731 with both labels, first 37.0%, vote 48.2% (47.3% with first-seen ties), oracle 67.2%', async () => {
    const path = repoSamplePath();
    const ds = await readDataset(fileStream(path), { totalBytes: statSync(path).size });
    const s = datasetStats(ds);
    expect(s.lines).toEqual({ read: 5276, accepted: 5276, rejected: 0, blank: 0, invalidUtf8: 0 });
    expect(ds.report.bytesRead).toBe(statSync(path).size);
    expect(s.groups).toBe(1319);
    expect(s.candidatesPerGroup).toEqual({ min: 4, median: 4, max: 4, histogram: [{ size: 4, groups: 1319 }] });
    expect(s.groupsBothLabels).toBe(731);
    expect(s.groupsAllCorrect).toBe(156);
    expect(s.groupsAllWrong).toBe(432);
    expect(s.shareCorrect).toBeCloseTo(2001 / 5276, 12);
    expect(s.firstCandidate).toBeCloseTo(488 / 1319, 12);
    expect(s.majorityVote).toBeCloseTo(635.25 / 1319, 12);
    expect(s.oracle).toBeCloseTo(887 / 1319, 12);
    expect(s.firstCandidate.toFixed(3)).toBe('0.370');
    expect(s.majorityVote.toFixed(3)).toBe('0.482');
    expect(s.oracle.toFixed(3)).toBe('0.672');
    expect(s.candidatesWithAnswer).toBe(5276);
    // Every line has a label and a gold answer: labels from the gold answers would be the given ones.
    expect(s.answers.labelAndGold).toBe(5276);
    expect(s.answers.labelGoldDisagreements).toBe(0);
    expect(s.answers.answerFieldDisagreements).toBe(0);
  });

  it('extracts from the texts the same answers the file gives', async () => {
    const ds = await readDataset(fileStream(repoSamplePath()));
    const cands = ds.groups.flatMap((g) => g.candidates);
    const agree = cands.filter((c) => candidateAnswerKey(null, c.genText) === c.answerKey).length;
    expect(agree).toBe(5276);
  });
});
