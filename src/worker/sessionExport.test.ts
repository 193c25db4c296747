/** Export run, the model card beside exported weights, Rerank's answers, and the best checkpoint by another metric, through the Session. */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rerankAnswers } from '../engine/metrics/rerankProbability.ts';
import { file, harness, sampleLines, tinySettings } from './testing/sessionHarness.ts';

const settings = tinySettings({ epochs: 2, groupsPerStep: 2, bestMetric: 'btLoss' });
const sample = sampleLines(0, 48);
const text = (bytes: ArrayBuffer) => new TextDecoder().decode(bytes);

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('Session: taking a run away', () => {
  it('exports the run as metrics.jsonl, the weights with a model card, reranks by answer, and picks the best checkpoint by BT loss', async () => {
    const h = harness();
    await expect(h.run({ type: 'exportRun' })).rejects.toThrow(/No run to export/);
    await h.run({ type: 'loadData', role: 'train', source: file(sample) });
    await h.run({ type: 'start', settings });
    expect(await h.runEnd()).toMatchObject({ reason: 'finished' });

    // The best checkpoint is the validation with the lowest BT loss (epoch 0 never counts).
    const evals = h.all('evaluation').map((e) => e.report);
    let lowest = Infinity;
    for (const r of evals) {
      const best = r.epoch >= 1 && r.summary.btLoss < lowest;
      expect(r.isBest, `epoch ${r.epoch}`).toBe(best);
      if (best) lowest = r.summary.btLoss;
    }
    expect(evals.every((r) => r.selection !== undefined)).toBe(true);

    await h.run({ type: 'exportRun' });
    const run = h.last('exported')!;
    expect(run.what).toBe('run');
    expect(run.fileName).toMatch(/metrics\.jsonl$/);
    const records = text(run.bytes)
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records[0]).toMatchObject({ type: 'config', trainGroups: expect.any(Number), settings: { bestMetric: 'btLoss' } });
    expect(records.filter((r) => r.type === 'eval').map((r) => r.epoch)).toEqual(evals.map((r) => r.epoch));
    expect(records.filter((r) => r.type === 'step')).toHaveLength(h.last('complete')!.steps);
    expect(records.at(-1)).toMatchObject({ type: 'end', reason: 'finished', steps: h.last('complete')!.steps });

    await h.run({ type: 'export' });
    const [card, weights] = h.all('exported').slice(-2);
    expect(weights.what).toBe('weights');
    expect(card).toMatchObject({ what: 'card', fileName: weights.fileName.replace(/\.safetensors$/, '.md') });
    const md = text(card.bytes);
    expect(md).toContain('## Selection rules: validation');
    expect(md).toContain('| bestMetric | btLoss |');
    expect(md).toContain('## Limits');

    const pasted = 'So 9 * 2 = 18.\nA: 18\n---\nIt is 26.\nA: 26\n---\nNine at $2: 18.\nA: 18';
    await h.run({ type: 'rerank', question: 'How much does Janet make?', candidates: pasted });
    const ranked = h.last('reranked')!;
    expect(ranked.answers.map((a) => a.answer).sort()).toEqual(['18', '26']);
    expect(ranked.answers.filter((a) => a.picked)).toHaveLength(1);
    // The probabilities are the map the run's last validation fitted on held-out questions, recorded with the model.
    const map = evals.at(-1)!.selection!.probabilityMap;
    expect(ranked.temperature).toBe(map.temperature);
    const energies = [...ranked.candidates].sort((a, b) => a.index - b.index).map((c) => c.energy);
    expect(ranked.answers).toEqual(rerankAnswers(['18', '26', '18'], energies, map));
    expect(ranked.answers.find((a) => a.answer === '18')!.candidates.sort()).toEqual([0, 2]);
  });
});
