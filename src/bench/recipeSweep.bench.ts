/**
 * One training run of a recipe with every validation's scored groups written out, for comparing recipes by
 * the selection rules offline (python/scripts/recipe_rules.py reads the file; docs/recipe.md has the table).
 *
 *   npm run bench -- recipeSweep --data FILE --lr 1e-3 --epochs 4 --out sweep.json
 * Options: --data FILE, --slice K (first K questions), --weaker-than ACC (only the candidates of sources whose
 * share correct over the file is below ACC: the same questions, fewer and weaker answers), --seed N,
 * --preset tiny|small, --lr X, --epochs N, --warmup RATIO, --dropout P, --wd X, --groups-per-step N, --out FILE.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { splitGroups } from '../engine/data/split.ts';
import { firstQuestions } from './firstQuestions.ts';
import { readTrainingData } from '../engine/data/testing/node.ts';
import { initParams } from '../engine/model/params.ts';
import { runTraining } from '../engine/train/loop.ts';
import { activeProfile } from '../engine/backend/profile.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS, type TrainSettings, modelConfigFor } from '../engine/train/settings.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const preset = opt('preset', 'tiny') as keyof typeof PRESETS;
const seed = Number(opt('seed', '42'));
const slice = Number(opt('slice', '0'));
const out = opt('out', 'sweep.json');
let text = readFileSync(resolve(opt('data', '')), 'utf8');
if (slice > 0) text = firstQuestions(text, slice);
const weakerThan = Number(opt('weaker-than', '0'));
if (weakerThan > 0) {
  const rows = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => ({ line: l, r: JSON.parse(l) as { source?: string; label?: number } }));
  const bySource = new Map<string, { n: number; correct: number }>();
  for (const { r } of rows) {
    const t = bySource.get(r.source ?? '') ?? { n: 0, correct: 0 };
    t.n++;
    t.correct += Number(r.label);
    bySource.set(r.source ?? '', t);
  }
  const weak = new Set([...bySource].filter(([, t]) => t.correct / t.n < weakerThan).map(([name]) => name));
  text =
    rows
      .filter(({ r }) => weak.has(r.source ?? ''))
      .map(({ line }) => line)
      .join('\n') + '\n';
  console.log(`${weak.size} of ${bySource.size} sources below ${weakerThan} correct`);
}
await tf.setBackend('wasm');
const t0 = performance.now();
const { view, answers } = await readTrainingData(text);
const model = { ...PRESETS[preset], dropout: Number(opt('dropout', String(PRESETS[preset].dropout))) };
const settings: TrainSettings = {
  ...DEFAULT_TRAIN_SETTINGS,
  preset,
  model,
  seed,
  epochs: Number(opt('epochs', String(DEFAULT_TRAIN_SETTINGS.epochs))),
  lr: Number(opt('lr', String(DEFAULT_TRAIN_SETTINGS.lr))),
  warmupRatio: Number(opt('warmup', String(DEFAULT_TRAIN_SETTINGS.warmupRatio))),
  weightDecay: Number(opt('wd', String(DEFAULT_TRAIN_SETTINGS.weightDecay))),
  groupsPerStep: Number(opt('groups-per-step', String(DEFAULT_TRAIN_SETTINGS.groupsPerStep))),
};
const cfg = modelConfigFor(settings.model);
const split = splitGroups(view, { seed, kind: settings.splitKind ?? 'all' });
const params = initParams(cfg, seed);
console.log(
  `${view.groupStart.length - 1} groups: ${split.train.length} train / ${split.val.length} val; ${JSON.stringify({ ...settings, model: undefined })} ${JSON.stringify(model)}`,
);
const evals: unknown[] = [];
const ignore = () => undefined;
await runTraining(
  { cfg, params, view, answers, split, settings, profile: activeProfile() },
  {
    state: ignore,
    points: ignore,
    progress: ignore,
    evalProgress: ignore,
    evaluation: (e) => {
      const s = e.evaluation.selection.rules;
      console.log(
        `epoch ${e.epoch} step ${e.step}: BoN ${s.bestOfN.accuracy.toFixed(4)} maj ${s.majority.accuracy.toFixed(4)} wv1 ${s.weightedVoteRaw.accuracy.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      );
      evals.push({
        epoch: e.epoch,
        step: e.step,
        seconds: (performance.now() - t0) / 1000,
        groups: e.evaluation.groups.map((g) => ({ energies: Array.from(g.energies), labels: Array.from(g.labels), answers: g.answers })),
      });
    },
  },
  new RunControl(),
);
writeFileSync(out, JSON.stringify({ settings, model, evals }));
console.log(`wrote ${out} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
