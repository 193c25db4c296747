import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromReference } from '../model/config.ts';
import { type Params, disposeParams, paramsFromArrays } from '../model/params.ts';
import { tokenSaliency } from '../model/saliency.ts';
import { readFixture } from '../testing/readFixtureNode.ts';
import { explainCandidate } from './explainEnergy.ts';

// The fixture's texts and energies: explainCandidate must read exactly the ids the fixture scored.
const fixture = readFixture();
const cfg = configFromReference(fixture.referenceConfig);
const group = (fixture.caseJson.groups as unknown as Array<{ question: string; gen_texts: string[]; ids: number[][]; lengths: number[]; energies: number[] }>)[0];
let params: Params;

beforeAll(async () => {
  await tf.setBackend('cpu');
  params = paramsFromArrays(cfg, fixture.weights);
});
afterAll(() => disposeParams(params));

describe('explainCandidate', () => {
  it('scores the fixture\'s input and splits its attribution over the text', async () => {
    const k = 4; // '3×5 = 15 🍎\n#### 15': a character split over tokens
    const out = await explainCandidate(cfg, params, group.question, group.gen_texts[k]);
    expect(Math.abs(out.energy - group.energies[k])).toBeLessThanOrEqual(1e-6);
    expect(out.tokens).toBe(group.lengths[k]);
    expect(out.truncated).toBe(false);
    expect(out.pieces.filter((p) => p.part === 'question').map((p) => p.text).join('')).toBe(group.question);
    expect(out.pieces.filter((p) => p.part === 'answer').map((p) => p.text).join('')).toBe(group.gen_texts[k]);
    expect(out.pieces.map((p) => p.part).filter((p) => p === 'cls' || p === 'sep')).toEqual(['cls', 'sep']);
    expect(out.pieces.reduce((n, p) => n + p.tokens, 0)).toBe(out.tokens);

    // Each piece's score is the sum of its tokens' scores.
    const { scores } = await tokenSaliency(cfg, params, group.ids[k].slice(0, group.lengths[k]));
    const total = Array.from(scores).reduce((a, b) => a + b, 0);
    expect(out.pieces.reduce((a, p) => a + p.score, 0)).toBeCloseTo(total, 5);
    const text = out.pieces.filter((p) => p.part === 'question' || p.part === 'answer');
    expect(Math.max(...text.map((p) => Math.abs(p.shade)))).toBeCloseTo(1, 12);
    for (const p of out.pieces) {
      expect(Math.abs(p.shade)).toBeLessThanOrEqual(1);
      expect(Math.sign(p.shade)).toBe(Math.sign(p.score));
    }
    expect(out.scale).toBe(Math.max(...text.map((p) => Math.abs(p.score))));
  });

  it('cuts at maxLen as the model reads it and says so', async () => {
    const short = { ...cfg, maxLen: 8 };
    const out = await explainCandidate(short, params, group.question, group.gen_texts[1]);
    expect(out.tokens).toBe(8);
    expect(out.truncated).toBe(true);
    expect(out.pieces.reduce((n, p) => n + p.tokens, 0)).toBe(8);
    const full = await explainCandidate(cfg, params, group.question, group.gen_texts[1]);
    expect(full.truncated).toBe(false);
  });
});
