/**
 * The app and python/ agree question by question on both shared data files (issue 31, point 6): every
 * question's set of candidates tied at the lowest energy, and so its Best-of-N score, is the same on both
 * sides. Ties are exact equality, and inputs cut at maxLen are often identical (same question, answers that
 * differ only after the cut): each side scores each distinct input once, so identical inputs get identical
 * energies by construction, whatever batch or padding they would have fallen in. A small model (maxLen 32,
 * every question) keeps the two files near a minute. Needs a Python with torch, and /work/shared/data (or EORM_SHARED_DATA).
 */
import * as tf from '@tensorflow/tfjs';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStream, readDataset } from '../data/testing/node.ts';
import { inProcessPool } from '../data/tokenize/tokenizePool.ts';
import { tokenizeDataset, trainingView } from '../data/tokenize/tokenizeDataset.ts';
import { bestOfNScore, rankKey } from '../metrics/rank.ts';
import { makeConfig } from '../model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../data/tokenize/gpt2.ts';
import { disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import { candidateIds } from '../score/candidateIds.ts';
import { scoreDistinct } from '../score/distinctInputs.ts';
import { writeModel } from './modelFile.ts';
import { activeProfile } from '../backend/profile.ts';

const SHARED = process.env.EORM_SHARED_DATA ?? '/work/shared/data';
const FILES = ['gsm8k_gpt3_openai_4cand.jsonl', 'gsm8k_zeroeval_multimodel_16cand.jsonl'];
const cfg = makeConfig({
  vocabSize: GPT2_VOCAB,
  dModel: 16,
  nHeads: 2,
  nLayers: 2,
  ffnDim: 32,
  dropout: 0,
  maxLen: 32,
  clsId: GPT2_EOT,
  sepId: GPT2_EOT,
  padId: GPT2_EOT,
});
const { python, tried } = findPython();
let dir = '';
let weights = '';
let arrays: Map<string, Float32Array>;

/** Indices of the candidates tied at the lowest energy (non-finite ranks as +Infinity, as everywhere). */
function lowest(energies: ArrayLike<number>): number[] {
  const keys = Array.from(energies, rankKey);
  const min = Math.min(...keys);
  return keys.flatMap((k, i) => (k === min ? [i] : []));
}

/** Energies per group, in candidate order, from eorm.score's rows (`group` and `index` as the app orders them). */
function pythonGroups(path: string): number[][] {
  const out = runPython(python!, ['-m', 'eorm.score', '--weights', weights, '--data', path, '--curve-subsets', '0'], { OMP_NUM_THREADS: '1' });
  const groups: number[][] = [];
  for (const line of out.trim().split('\n')) {
    const r = JSON.parse(line) as { group?: number; index?: number; energy?: number | null };
    if (r.group === undefined) continue;
    (groups[r.group] ??= [])[r.index!] = r.energy ?? NaN;
  }
  return groups;
}

beforeAll(async () => {
  await tf.setBackend('cpu');
  dir = mkdtempSync(join(tmpdir(), 'eorm-per-question-'));
  const init = initParams(cfg, 7);
  arrays = await paramsToArrays(init, activeProfile());
  disposeParams(init);
  weights = join(dir, 'tiny.safetensors');
  writeFileSync(weights, writeModel({ cfg, tensors: arrays, metadata: { training: { source: 'pythonPerQuestion.test' } } }));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the app and python/ agree question by question', () => {
  for (const name of FILES) {
    it(`${name}: the same tied lowest energies and Best-of-N on every question`, async () => {
      if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
      const path = join(SHARED, name);
      if (!existsSync(path)) throw new Error(`${path} is missing: the shared data files are needed (set EORM_SHARED_DATA to their folder).`);
      const dataset = await readDataset(fileStream(path));
      const view = trainingView(dataset, await tokenizeDataset(dataset, { maxLen: cfg.maxLen, clsId: cfg.clsId, sepId: cfg.sepId }, inProcessPool()));
      const params = paramsFromArrays(cfg, arrays);
      // The energies an evaluation scores (evaluation.ts: each distinct input once), without its figures.
      const ids = Array.from({ length: view.labels.length }, (_, i) => candidateIds(view, i, cfg.maxLen));
      const energies = await scoreDistinct(cfg, params, ids, { profile: activeProfile() });
      disposeParams(params);
      const app = dataset.groups.map((_, k) => Array.from(energies.subarray(view.groupStart[k], view.groupStart[k + 1])));
      const py = pythonGroups(path);
      expect(py.length).toBe(app.length);

      let tiesDiffer = 0;
      let bestOfNDiffer = 0;
      let duplicateGroups = 0;
      let worst = 0;
      // The closest two different energies of a question come (app side): a rank flips only if the sides differ by as much.
      let closest = Infinity;
      dataset.groups.forEach((g, k) => {
        const labels = g.candidates.map((c) => c.label);
        if (lowest(app[k]).join() !== lowest(py[k]).join()) tiesDiffer++;
        if (bestOfNScore(app[k], labels) !== bestOfNScore(py[k], labels)) bestOfNDiffer++;
        if (new Set(app[k]).size < app[k].length) duplicateGroups++;
        app[k].forEach((e, i) => {
          worst = Math.max(worst, Math.abs(e - py[k][i]));
          for (const f of app[k]) if (f !== e) closest = Math.min(closest, Math.abs(f - e));
        });
      });
      console.log(
        `${name}: ${app.length} questions, ${duplicateGroups} with identical inputs; tied lowest energies differ on ${tiesDiffer}, Best-of-N on ${bestOfNDiffer}; max |ΔE| app−python ${worst.toExponential(2)}, closest different energies of a question ${closest.toExponential(2)}`,
      );
      expect(duplicateGroups).toBeGreaterThan(0);
      expect({ tiesDiffer, bestOfNDiffer }).toEqual({ tiesDiffer: 0, bestOfNDiffer: 0 });
      expect(worst).toBeLessThanOrEqual(1e-5);
      // About 45 s for both files on 2 idle cores (mostly tokenizing 26k answers on each side); the limit only stops a hang.
    }, 600_000);
  }
});
