/**
 * Same recipe, same verifier: trains the same run in the app's engine (Node, tfjs WASM backend) and in
 * python/ (`python -m eorm.train`) and prints both curves (val Best-of-N and val BT loss per epoch). Figures,
 * not a pass/fail test; the bar for "same recipe" is final val Best-of-N within 4 points and val loss within 0.02
 * (initialisation and dropout come from different generators, so the curves agree as two runs of one recipe do).
 *
 *   npm run bench -- recipe                          # the full run: sample data, seed 42, tiny, 8 epochs, lr 1e-4
 *   npm run bench -- recipe --epochs 1 --lines 400   # a quick look on a slice
 * Options: --epochs N, --lines N (first N lines of the file), --data FILE, --lr X, --seed N, --preset tiny|small,
 * --skip-app, --skip-python, --json FILE (write both curves). PYTHON picks the interpreter (else python3 with
 * torch, else /usr/bin/python3). The full run trains 585 steps per epoch on each side, one side after the other
 * (its duration on a 2-core machine: docs/performance.md).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { readTrainingData } from '../engine/data/testing/node.ts';
import { splitGroups } from '../engine/data/split.ts';
import { initParams } from '../engine/model/params.ts';
import { runTraining } from '../engine/train/loop.ts';
import { INSTALL_TORCH, findPython } from '../engine/testing/pythonNode.ts';
import { activeProfile } from '../engine/backend/profile.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS, type TrainSettings, modelConfigFor } from '../engine/train/settings.ts';

interface Point {
  epoch: number;
  bestOfN: number;
  btLoss: number;
  pairwise: number;
  trainLoss: number | null;
  seconds: number;
}

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const flag = (name: string) => argv.includes(`--${name}`);
const root = process.cwd();
const epochs = Number(opt('epochs', '8'));
const lr = Number(opt('lr', '1e-4'));
const seed = Number(opt('seed', '42'));
const preset = opt('preset', 'tiny') as keyof typeof PRESETS;
const lines = Number(opt('lines', '0'));
const source = resolve(root, opt('data', join('public', SAMPLE_DATASET_PATH)));
let text = readFileSync(source, 'utf8');
if (lines > 0) text = text.split('\n').slice(0, lines).join('\n') + '\n';
const work = mkdtempSync(join(tmpdir(), 'eorm-recipe-'));
const dataPath = join(work, 'data.jsonl');
writeFileSync(dataPath, text);

async function app(): Promise<Point[]> {
  await tf.setBackend('wasm');
  const t0 = performance.now();
  const { view, answers } = await readTrainingData(text);
  const settings: TrainSettings = { ...DEFAULT_TRAIN_SETTINGS, preset, model: PRESETS[preset], epochs, lr, seed };
  const cfg = modelConfigFor(settings.model);
  // The app's default split, named on both sides (python/'s default is the same, but the comparison must not hang on it).
  const split = splitGroups(view, { seed, kind: settings.splitKind });
  const params = initParams(cfg, seed);
  const points: Point[] = [];
  console.log(
    `app (tfjs ${tf.getBackend()}): ${split.train.length} train / ${split.val.length} val groups, ${preset}, ${epochs} epoch(s), lr ${lr}, seed ${seed}`,
  );
  await runTraining(
    { cfg, params, view, answers, split, settings, profile: activeProfile() },
    {
      state: () => undefined,
      points: () => undefined,
      progress: () => undefined,
      evalProgress: () => undefined,
      evaluation: (e) => {
        const s = e.evaluation.summary;
        const p = {
          epoch: e.epoch,
          bestOfN: s.bestOfN,
          btLoss: s.btLoss,
          pairwise: s.pairwise,
          trainLoss: e.epochTrainLoss,
          seconds: (performance.now() - t0) / 1000,
        };
        points.push(p);
        console.log(`  app    epoch ${p.epoch}: val Best-of-N ${p.bestOfN.toFixed(4)}  val loss ${p.btLoss.toFixed(4)}  (${p.seconds.toFixed(0)} s)`);
      },
    },
    new RunControl(),
  );
  return points;
}

function pythonWithTorch(): string {
  const { python: py, tried } = findPython();
  if (!py) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
  return py;
}

function python(): Point[] {
  const py = pythonWithTorch();
  const out = join(work, 'python-run');
  const args = [
    '-m',
    'eorm.train',
    '--data',
    dataPath,
    '--out',
    out,
    '--preset',
    preset,
    '--epochs',
    String(epochs),
    '--lr',
    String(lr),
    '--seed',
    String(seed),
    '--split',
    DEFAULT_TRAIN_SETTINGS.splitKind ?? 'all',
    '--resume',
    'never',
    '--quiet',
  ];
  console.log(`python (${py} ${args.join(' ')})`);
  const r = spawnSync(py, args, {
    cwd: join(root, 'python'),
    env: { ...process.env, PYTHONPATH: join(root, 'python') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`eorm.train failed (${r.status})`);
  const points: Point[] = [];
  for (const line of readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')) {
    const rec = JSON.parse(line) as {
      type: string;
      epoch: number;
      time: number;
      epochTrainLoss: number | null;
      summary: { bestOfN: number; btLoss: number; pairwise: number };
    };
    if (rec.type !== 'eval') continue;
    const p = {
      epoch: rec.epoch,
      bestOfN: rec.summary.bestOfN,
      btLoss: rec.summary.btLoss,
      pairwise: rec.summary.pairwise,
      trainLoss: rec.epochTrainLoss,
      seconds: rec.time,
    };
    points.push(p);
    console.log(`  python epoch ${p.epoch}: val Best-of-N ${p.bestOfN.toFixed(4)}  val loss ${p.btLoss.toFixed(4)}  (${p.seconds.toFixed(0)} s)`);
  }
  return points;
}

const appPoints = flag('skip-app') ? [] : await app();
const pyPoints = flag('skip-python') ? [] : python();
console.log('\nepoch | app BoN | py BoN | app val loss | py val loss | app train loss | py train loss');
for (let e = 0; e <= epochs; e++) {
  const a = appPoints.find((p) => p.epoch === e);
  const p = pyPoints.find((q) => q.epoch === e);
  const f = (x: number | null | undefined, d = 4) => (x === null || x === undefined ? '   -  ' : x.toFixed(d));
  console.log(
    `${String(e).padStart(5)} | ${f(a?.bestOfN)}  | ${f(p?.bestOfN)} | ${f(a?.btLoss)}       | ${f(p?.btLoss)}      | ${f(a?.trainLoss)}         | ${f(p?.trainLoss)}`,
  );
}
const lastA = appPoints[appPoints.length - 1];
const lastP = pyPoints[pyPoints.length - 1];
if (lastA && lastP) {
  const dBon = Math.abs(lastA.bestOfN - lastP.bestOfN) * 100;
  const dLoss = Math.abs(lastA.btLoss - lastP.btLoss);
  console.log(
    `\nfinal: |Δ val Best-of-N| = ${dBon.toFixed(2)} points (bar 4), |Δ val loss| = ${dLoss.toFixed(4)} (bar 0.02): ${dBon <= 4 && dLoss <= 0.02 ? 'within' : 'OUTSIDE'} the issue's bars`,
  );
}
const jsonOut = opt('json', '');
if (jsonOut) writeFileSync(resolve(root, jsonOut), JSON.stringify({ epochs, lr, seed, preset, lines, app: appPoints, python: pyPoints }, null, 2));
