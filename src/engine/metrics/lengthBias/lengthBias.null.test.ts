/**
 * The length check under no signal (issue 43): random energies on random groups of 145 questions of the
 * 4-answer sample, as an outside review drew them. A verifier with no signal ignores length, so the check
 * must call a lean real in at most 5% of draws; with −ρ(energy, length) − ρ(label, length) it did in 12–18%.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { fileStream, readDataset, repoSamplePath } from '../../data/testing/node.ts';
import { tokenizeChunk } from '../../data/tokenize/tokenize.ts';
import { GPT2_EOT } from '../../data/tokenize/gpt2.ts';
import { answerTokens } from './answerLength.ts';
import { lengthBias } from './lengthBias.ts';
import type { ScoredGroup } from '../summary.ts';

const DRAWS = 400;
const QUESTIONS = 145;

/** Every question of the sample: its labels and answer tokens (answerLength.ts on the app's 4096-id inputs). */
async function sample(): Promise<Array<{ labels: number[]; lengths: number[] }>> {
  const ds = await readDataset(fileStream(repoSamplePath()));
  const chunk = tokenizeChunk({
    maxLen: 4096,
    clsId: GPT2_EOT,
    sepId: GPT2_EOT,
    questions: ds.groups.map((g) => g.question),
    groupSizes: ds.groups.map((g) => g.candidates.length),
    genTexts: ds.groups.flatMap((g) => g.candidates.map((c) => c.genText)),
  });
  const lengths = answerTokens(
    { tokens: { maxLen: 4096, ...chunk }, labels: new Uint8Array(0), groupStart: new Uint32Array(0) },
    0,
    chunk.offsets.length - 1,
    GPT2_EOT,
  );
  let c = 0;
  return ds.groups.map((g) => ({ labels: g.candidates.map((x) => x.label), lengths: g.candidates.map(() => lengths[c++]) }));
}

describe('length check under no signal', () => {
  it(`calls a lean real in at most 5% of ${DRAWS} draws of random energies (beyond Monte-Carlo error)`, async () => {
    const all = await sample();
    expect(all.length).toBeGreaterThan(1000);
    const rng = createRng(43);
    let real = 0;
    let leanSum = 0;
    for (let d = 0; d < DRAWS; d++) {
      // QUESTIONS questions without replacement (a partial Fisher–Yates), each answer a uniform energy.
      const order = Array.from(all, (_, i) => i);
      const scored: ScoredGroup[] = [];
      for (let k = 0; k < QUESTIONS; k++) {
        const j = k + rng.int(order.length - k);
        [order[k], order[j]] = [order[j], order[k]];
        const q = all[order[k]];
        scored.push({ energies: q.labels.map(() => rng.next()), labels: q.labels, lengths: q.lengths, answers: q.labels.map(() => null) });
      }
      const b = lengthBias(scored, { seed: d, figuresOver: 'allQuestions' });
      if (b.real) real++;
      leanSum += b.lean;
    }
    const p = real / DRAWS;
    const z = 1.96;
    const centre = (p + (z * z) / (2 * DRAWS)) / (1 + (z * z) / DRAWS);
    const half = (z * Math.sqrt((p * (1 - p)) / DRAWS + (z * z) / (4 * DRAWS * DRAWS))) / (1 + (z * z) / DRAWS);
    console.log(
      `real in ${real} of ${DRAWS} draws: ${(100 * p).toFixed(1)}% (95% Wilson ${(100 * (centre - half)).toFixed(1)}% to ${(100 * (centre + half)).toFixed(1)}%); mean lean ${(leanSum / DRAWS).toFixed(4)}`,
    );
    // At a true 5%, a count above 5% of the draws plus two binomial standard deviations (28 of 400) is rare.
    expect(real).toBeLessThanOrEqual(Math.floor(DRAWS * 0.05 + 2 * Math.sqrt(DRAWS * 0.05 * 0.95)));
    // No signal leans neither way: the old lean averaged −0.057 here (−ρ(label, length)).
    expect(Math.abs(leanSum / DRAWS)).toBeLessThan(0.01);
  }, 120_000);
});
