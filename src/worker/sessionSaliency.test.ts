import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir } from '../engine/testing/fixtureDir.ts';
import { harness } from './testing/sessionHarness.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('the saliency command', () => {
  it("answers with the candidate's energy and its pieces' deletion effects, on the selected model, its request id echoed, with progress", async () => {
    const h = harness();
    await expect(h.run({ type: 'saliency', target: { view: 'rerank', index: 0, id: 1 }, question: 'q', text: 'a' })).rejects.toThrow(/model/i);

    const dir = fixtureDir();
    const bytes = readFileSync(join(dir, 'weights.safetensors'));
    const fixtureCase = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as {
      groups: Array<{ question: string; gen_texts: string[]; energies: number[] }>;
    };
    await h.run({ type: 'import', bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), fileName: 'weights.safetensors' });
    const g = fixtureCase.groups[0];
    await h.run({ type: 'saliency', target: { view: 'inspect', index: 3, id: 7 }, question: g.question, text: g.gen_texts[3] });
    const answer = h.last('saliency')!;
    expect(answer.target).toEqual({ view: 'inspect', index: 3, id: 7 });
    expect(answer.modelSlot).toBe('imported');
    expect(Math.abs(answer.energy - g.energies[3])).toBeLessThan(1e-6);
    const text = g.gen_texts[3];
    expect(answer.steps.map((p) => p.text).join('')).toBe(text);
    expect(answer.truncated).toBe(false);
    expect(answer.tokens.length).toBeGreaterThan(0);
    for (const p of [...answer.steps, ...answer.tokens]) {
      expect(p.text).toBe(text.slice(p.start, p.end));
      expect(Number.isFinite(p.delta) && Math.abs(p.shade) <= 1).toBe(true);
    }
    const progress = h.all('saliencyProgress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toEqual({
      type: 'saliencyProgress',
      target: { view: 'inspect', index: 3, id: 7 },
      done: answer.variants + 1,
      total: answer.variants + 1,
    });
  });
});
