/**
 * Scoring with 8-bit products (kernels/quantLinear/) against float32, on the shapes users bring: does it keep
 * the picks, how far do the energies move, and how much faster is it? Per data set, the app's engine in Node
 * (tfjs-wasm, one thread) trains the tiny preset (3 epochs, seed 42, the app's split), evaluates it on its
 * validation split (the probability map Pick answers reads), then scores every question's candidates both
 * ways and picks each question's answer under each rule that reads energies, as Pick answers does
 * (picksRule.ts). Prints the share of questions whose pick is the same, the energies' largest difference (and
 * relative to their spread), and both scorings' tokens/s. Then the speed alone on long answers with the small
 * preset (untrained weights: the speed does not depend on them).
 *
 *   npm run bench -- int8 [--epochs 3] [--data FILE --slice K --weaker-than P] [--speed-only]
 * Without --data: the built-in sample, the shared 16-answer file's first 300 questions, and its weaker
 * generators (below 85% correct over the file).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { splitGroups } from '../engine/data/split.ts';
import { readTrainingData } from '../engine/data/testing/node.ts';
import type { TrainingView } from '../engine/data/types.ts';
import { activeProfile } from '../engine/backend/profile.ts';
import { RULE_BY_ID, type SelectionRule } from '../engine/metrics/rules.ts';
import { initParams } from '../engine/model/params.ts';
import type { ModelConfig } from '../engine/model/config.ts';
import type { ParamTensors } from '../engine/model/transebm.ts';
import { candidateIds } from '../engine/score/candidateIds.ts';
import { scoreDistinct } from '../engine/score/distinctInputs.ts';
import { evaluateModel } from '../engine/score/evaluation.ts';
import { pickQuestion } from '../engine/score/picksRule.ts';
import type { ScorePrecision } from '../engine/score/scoring.ts';
import { trainingGenerators } from '../engine/score/trainingGenerators.ts';
import { runTraining } from '../engine/train/loop.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS, type TrainSettings, modelConfigFor } from '../engine/train/settings.ts';
import { firstQuestions, weakerGenerators } from './firstQuestions.ts';
import { longAnswers } from './longAnswers.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const root = process.cwd();
const epochs = Number(opt('epochs', '3'));
const seed = 42;
const SIXTEEN = '/work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl';

interface DataSet {
  name: string;
  text: string;
}

function dataSets(): DataSet[] {
  const given = opt('data', '');
  if (given) {
    let text = readFileSync(resolve(root, given), 'utf8');
    const slice = Number(opt('slice', '0'));
    if (slice > 0) text = firstQuestions(text, slice);
    const weaker = Number(opt('weaker-than', '1'));
    if (weaker < 1) text = weakerGenerators(text, weaker);
    return [{ name: given, text }];
  }
  const sixteen = readFileSync(SIXTEEN, 'utf8');
  return [
    { name: 'sample (4 answers)', text: readFileSync(join(root, 'public', SAMPLE_DATASET_PATH), 'utf8') },
    { name: '16 answers, first 300 questions', text: firstQuestions(sixteen, 300) },
    { name: '16 answers, generators below 85% correct', text: weakerGenerators(sixteen, 0.85) },
  ];
}

/** Every candidate's ids (cut at maxLen), and their real tokens. */
function inputsOf(view: TrainingView, cfg: ModelConfig): { ids: Uint16Array[]; tokens: number } {
  const ids = Array.from({ length: view.labels.length }, (_, i) => candidateIds(view, i, cfg.maxLen));
  return { ids, tokens: ids.reduce((a, c) => a + c.length, 0) };
}

async function timedScores(
  cfg: ModelConfig,
  params: ParamTensors,
  ids: Uint16Array[],
  precision: ScorePrecision,
): Promise<{ energies: Float32Array; ms: number }> {
  const t0 = performance.now();
  const energies = await scoreDistinct(cfg, params, ids, { profile: activeProfile(), precision });
  return { energies, ms: performance.now() - t0 };
}

await tf.setBackend('wasm');
const RULES: SelectionRule[] = ['bestOfN', 'weightedVote', 'selector'];
for (const { name, text } of argv.includes('--speed-only') ? [] : dataSets()) {
  const { view, answers, dataset } = await readTrainingData(text);
  const settings: TrainSettings = { ...DEFAULT_TRAIN_SETTINGS, epochs, seed };
  const cfg = modelConfigFor(settings.model);
  const split = splitGroups(view, { seed, kind: settings.splitKind });
  const params = initParams(cfg, seed);
  const ignore = () => undefined;
  const listener = { state: ignore, points: ignore, progress: ignore, evalProgress: ignore, evaluation: ignore };
  await runTraining({ cfg, params, view, answers, split, settings, profile: activeProfile() }, listener, new RunControl());
  const generators = trainingGenerators(view, answers, split.train, seed);
  const map = (await evaluateModel(cfg, params, view, answers, split.val, seed, { profile: activeProfile() }, 'bothLabels', generators)).selection
    .probabilityMap;
  const { ids, tokens } = inputsOf(view, cfg);
  const f32 = await timedScores(cfg, params, ids, 'float32');
  const i8 = await timedScores(cfg, params, ids, 'int8');
  let maxDiff = 0;
  let sum = 0;
  let ss = 0;
  f32.energies.forEach((e, i) => {
    maxDiff = Math.max(maxDiff, Math.abs(e - i8.energies[i]));
    sum += e;
    ss += e * e;
  });
  const std = Math.sqrt(ss / f32.energies.length - (sum / f32.energies.length) ** 2);
  console.log(`\n${name}: ${dataset.groups.length} questions, ${ids.length} candidates, tiny trained ${epochs} epochs`);
  console.log(
    `  energies: largest |int8 − float32| ${maxDiff.toExponential(2)} (${((100 * maxDiff) / std).toFixed(2)}% of their standard deviation ${std.toFixed(3)})`,
  );
  console.log(
    `  scoring every candidate, one thread: float32 ${((1000 * tokens) / f32.ms).toFixed(0)} tok/s, int8 ${((1000 * tokens) / i8.ms).toFixed(0)} tok/s (${(f32.ms / i8.ms).toFixed(2)}×)`,
  );
  for (const rule of [...RULES, ...(map.recommended && !RULES.includes(map.recommended) ? [map.recommended] : [])]) {
    if (RULE_BY_ID[rule].pick === 'coefficients' && !map.selector) continue;
    let same = 0;
    let c = 0;
    dataset.groups.forEach((g) => {
      const n = g.candidates.length;
      const keys = g.candidates.map((x) => x.answerKey);
      const a = pickQuestion(keys, f32.energies.subarray(c, c + n), map, rule);
      const b = pickQuestion(keys, i8.energies.subarray(c, c + n), map, rule);
      if (a.answer === b.answer) same++;
      c += n;
    });
    console.log(
      `  ${rule}${rule === map.recommended ? ' (recommended)' : ''}: the same answer picked on ${same} of ${dataset.groups.length} questions (${((100 * same) / dataset.groups.length).toFixed(2)}%)`,
    );
  }
}

// Speed alone: long answers (most at the cap), small and tiny presets, untrained weights.
const long = longAnswers(firstQuestions(readFileSync(SIXTEEN, 'utf8'), 40));
const { view } = await readTrainingData(long);
for (const preset of ['tiny', 'small'] as const) {
  const cfg = modelConfigFor(PRESETS[preset]);
  const params = initParams(cfg, seed);
  const { ids, tokens } = inputsOf(view, cfg);
  await timedScores(cfg, params, ids.slice(0, 16), 'int8');
  const f32 = await timedScores(cfg, params, ids, 'float32');
  const i8 = await timedScores(cfg, params, ids, 'int8');
  console.log(
    `\nlong answers (40 questions × 16, ${preset}): float32 ${((1000 * tokens) / f32.ms).toFixed(0)} tok/s, int8 ${((1000 * tokens) / i8.ms).toFixed(0)} tok/s (${(f32.ms / i8.ms).toFixed(2)}×); energies differ by at most ${Math.max(...f32.energies.map((e, i) => Math.abs(e - i8.energies[i]))).toExponential(2)}`,
  );
}
