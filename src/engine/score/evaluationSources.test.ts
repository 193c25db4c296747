import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrainingView } from '../data/types.ts';
import { makeConfig } from '../model/config.ts';
import { disposeParams, initParams } from '../model/params.ts';
import { sourceAudit } from '../metrics/sources.ts';
import { evaluateModel } from './evaluation.ts';
import { activeProfile } from '../backend/profile.ts';

const cfg = makeConfig({ vocabSize: 50, dModel: 8, nHeads: 2, nLayers: 1, maxLen: 24, dropout: 0, clsId: 49, sepId: 49, padId: 49 });

/** Groups of 3 candidates (sources 0, 1 and none), labels alternating; tokens differ per candidate. */
function view(nGroups: number): TrainingView {
  const n = nGroups * 3;
  const lens = Array.from({ length: n }, (_, i) => 4 + (i % 7));
  const offsets = new Uint32Array(n + 1);
  lens.forEach((l, i) => (offsets[i + 1] = offsets[i] + l));
  const tokens = Uint16Array.from({ length: offsets[n] }, (_, t) => (t === 0 ? 49 : 1 + ((t * 13) % 47)));
  for (let i = 0; i < n; i++) tokens[offsets[i]] = 49;
  return {
    tokens: { maxLen: 24, tokens, offsets, truncated: 0 },
    labels: Uint8Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : (i >> 2) & 1)),
    groupStart: Uint32Array.from({ length: nGroups + 1 }, (_, g) => g * 3),
    sources: { names: ['gen-a', 'gen-b'], index: Int32Array.from({ length: n }, (_, i) => (i % 3 === 2 ? -1 : i % 3)) },
  };
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('evaluateModel: per-source audit', () => {
  it('audits the evaluated groups with their energies, and gives [] for a view without sources', async () => {
    const v = view(8);
    const answers = Array.from({ length: 24 }, () => null);
    const groups = Uint32Array.from([1, 4, 6, 7]);
    const params = initParams(cfg, 5);
    try {
      const e = await evaluateModel(cfg, params, v, answers, groups, 3, { profile: activeProfile() });
      const want = sourceAudit(
        e.groups.map((g, k) => ({ energies: g.energies, labels: g.labels, sources: v.sources!.index.subarray(groups[k] * 3, groups[k] * 3 + 3) })),
        ['gen-a', 'gen-b'],
      );
      expect(e.sources).toEqual(want);
      expect(e.sources.map((r) => [r.source, r.candidates])).toEqual([
        ['gen-a', 4],
        ['gen-b', 4],
      ]);
      const { sources: _s, ...bare } = v;
      expect((await evaluateModel(cfg, params, bare, answers, groups, 3, { profile: activeProfile() })).sources).toEqual([]);
    } finally {
      disposeParams(params);
    }
  });
});
