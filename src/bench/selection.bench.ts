/**
 * The selection report of one real run, from the app's engine and from `python -m eorm.score` on the same
 * weights: trains in Node (tfjs WASM, as recipe.bench), evaluates the final weights on the validation split,
 * prints every rule with its 95% interval, the cross-fitted temperature, calibration out of fold against the
 * raw shares, the paired differences vs majority vote, the best verifier rule, the recommendation and the
 * per-source table; then scores the same weights and data in Python and prints each figure side by side with
 * the largest |difference|. The two engines' energies are compared first (float32 on each: they may differ
 * by up to ENERGY_TOLERANCE); the figures are then compared on the same energies, Python's (the app's
 * figures recomputed from them), so a figure's difference is the metrics' own. Exits 1 when the energies
 * differ by more than ENERGY_TOLERANCE, any figure (temperature within its search's bracket, the out-of-fold
 * calibration figures, the fitted maps' coefficients included) by more than 1e-6, or a sentence or rule name.
 * Why not the app's own figures against Python's: at a small temperature (T = 0.144 on the 16-answer
 * file) energies 1.4e-6 apart move the fitted T by 3.2e-6 in log, past the search's bracket; the app's own
 * T and its gap to Python's are printed beside.
 *
 *   npm run bench -- selection                      # built-in sample, tiny, 3 epochs, seed 42, the app's default split
 *   npm run bench -- selection --data /work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl --slice 300
 * Options: --epochs N, --data FILE, --slice K (first K questions), --seed N, --preset tiny|small,
 * --split all|mixed (default: the app's, DEFAULT_TRAIN_SETTINGS.splitKind), --keep (print the weights' path).
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SAMPLE_DATASET_PATH } from '../engine/data/sample.ts';
import { firstQuestions } from './firstQuestions.ts';
import { type PyRow, SideBySide, ci, diffOf, f4, num } from './sideBySide.ts';
import { type SplitKind, DEFAULT_TRAIN_FRACTION, splitGroups } from '../engine/data/split.ts';
import { splitRecord } from '../engine/data/splitRecord.ts';
import { readTrainingData } from '../engine/data/testing/node.ts';
import { writeModel } from '../engine/io/modelFile.ts';
import { SELECTION_RULES } from '../engine/metrics/selection.ts';
import { LOG_T_TOLERANCE, TEMPERATURE_MAX, TEMPERATURE_MIN } from '../engine/metrics/calibration/temperature.ts';
import type { ProbabilityMap, SelectionReport, SourceRow } from '../engine/metrics/selectionTypes.ts';
import { initParams, paramsToArrays } from '../engine/model/params.ts';
import { INSTALL_TORCH, findPython, runPython } from '../engine/testing/pythonNode.ts';
import { evaluateModel, evaluationOf } from '../engine/score/evaluation.ts';
import { runTraining } from '../engine/train/loop.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { DEFAULT_TRAIN_SETTINGS, PRESETS, type TrainSettings, modelConfigFor } from '../engine/train/settings.ts';
import { activeProfile } from '../engine/backend/profile.ts';

const TOLERANCE = 1e-6;
/** The two engines' energies, float32 each, on the same weights and inputs. */
const ENERGY_TOLERANCE = 1e-5;
const argv = process.argv.slice(2);
const opt = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : dflt;
};
const root = process.cwd();
const epochs = Number(opt('epochs', '3'));
const seed = Number(opt('seed', '42'));
const preset = opt('preset', 'tiny') as keyof typeof PRESETS;
const kind = opt('split', DEFAULT_TRAIN_SETTINGS.splitKind ?? 'all') as SplitKind;
const slice = Number(opt('slice', '0'));
const source = resolve(root, opt('data', join('public', SAMPLE_DATASET_PATH)));

let text = readFileSync(source, 'utf8');
if (slice > 0) text = firstQuestions(text, slice);
const work = mkdtempSync(join(tmpdir(), 'eorm-selection-'));
const dataPath = join(work, 'data.jsonl');
const weightsPath = join(work, 'weights.safetensors');
writeFileSync(dataPath, text);

// ---- the app: train, evaluate the final weights on the validation split, save them ----------------------
await tf.setBackend('wasm');
const t0 = performance.now();
const { view, answers } = await readTrainingData(text);
const settings: TrainSettings = { ...DEFAULT_TRAIN_SETTINGS, preset, model: PRESETS[preset], epochs, seed, splitKind: kind };
const cfg = modelConfigFor(settings.model);
const split = splitGroups(view, { seed, kind });
const params = initParams(cfg, seed);
console.log(
  `${source}${slice > 0 ? ` (first ${slice} questions)` : ''}: ${view.groupStart.length - 1} groups, split '${kind}' seed ${seed}: ${split.train.length} train / ${split.val.length} val groups`,
);
console.log(`app (tfjs ${tf.getBackend()}): ${preset}, ${epochs} epoch(s), lr ${settings.lr}`);
const ignore = () => undefined;
await runTraining(
  { cfg, params, view, answers, split, settings, profile: activeProfile() },
  {
    state: ignore,
    points: ignore,
    progress: ignore,
    evalProgress: ignore,
    evaluation: (e) =>
      console.log(
        `  epoch ${e.epoch}: val Best-of-N ${e.evaluation.summary.bestOfN.toFixed(4)}, weighted vote ${e.evaluation.selection.rules.weightedVote.accuracy.toFixed(4)} (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
      ),
  },
  new RunControl(),
);
const app = await evaluateModel(cfg, params, view, answers, split.val, seed, { profile: activeProfile() });
const contentHash = `sha256:${createHash('sha256').update(text).digest('hex')}`;
const training = { split: splitRecord(seed, DEFAULT_TRAIN_FRACTION, contentHash, kind), epochs, preset };
writeFileSync(weightsPath, writeModel({ cfg, tensors: await paramsToArrays(params, activeProfile()), metadata: { tokenizer: 'r50k_base', training } }));

// ---- Python: the same weights and data --------------------------------------------------------------------
const { python: py, tried } = findPython();
if (!py) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
const pyArgs = ['-m', 'eorm.score', '--weights', weightsPath, '--data', dataPath, '--groups', 'val', '--seed', String(seed)];
console.log(`python: ${py} ${pyArgs.join(' ')}`);
const pyLines = runPython(py, pyArgs)
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const pyFinal = pyLines.pop() as { selection: SelectionReport; sources: PyRow<SourceRow>[]; allQuestionsAccuracy: number | null };
const pyRows = pyLines as Array<{ group: number; index: number; energy: number | null }>;

// ---- side by side (sideBySide.ts) -------------------------------------------------------------------------
const side = new SideBySide(TOLERANCE);
const { failures } = side;
const compare = side.compare.bind(side);
const sameText = side.sameText.bind(side);

const pyGroups = [...new Set(pyRows.map((r) => r.group))].sort((a, b) => a - b);
const appGroups = Array.from(split.val).sort((a, b) => a - b);
const sameGroups = pyGroups.length === appGroups.length && pyGroups.every((g, i) => g === appGroups[i]);
console.log(
  `\nvalidation groups: app ${appGroups.length}, python ${pyGroups.length}${sameGroups ? ' (the same groups)' : ' — NOT the same groups: python split them differently'}`,
);
if (!sameGroups) {
  console.error(`FAILED: validation groups differ`);
  process.exit(1);
}
// Python's energies in the app's order (its validation groups, each's candidates).
const pyEnergy = new Map(pyRows.map((r) => [`${r.group}:${r.index}`, num(r.energy)]));
const onPython = Float32Array.from(app.groups.flatMap((g, k) => Array.from(g.energies, (_, i) => pyEnergy.get(`${split.val[k]}:${i}`) ?? NaN)));
const appEnergies = app.groups.flatMap((g) => Array.from(g.energies));
const dE = Math.max(...appEnergies.map((e, j) => diffOf(e, onPython[j])));
if (!(dE <= ENERGY_TOLERANCE)) failures.push(`energies: |Δ| ${dE.toExponential(2)}`);
console.log(
  `energies: largest |app − python| ${dE.toExponential(2)} over ${onPython.length} candidates (float32 on two engines; tolerance ${ENERGY_TOLERANCE})${dE <= ENERGY_TOLERANCE ? '' : ' !'}`,
);
// Every figure below: the app's metrics on Python's energies ("app") against Python's report.
const same = evaluationOf(view, answers, split.val, onPython, cfg.sepId, seed);
const s = same.selection;
const ps = pyFinal.selection;
const ownLogT = Math.abs(Math.log(app.selection.temperature) - Math.log(num(ps.temperature)));
console.log(
  `the app on its own energies: T ${app.selection.temperature.toPrecision(8)} (|Δ log T| to python ${ownLogT.toExponential(1)}), ${SELECTION_RULES.map((r) => `${r} ${f4(app.selection.rules[r].accuracy)}`).join(', ')}`,
);
console.log("figures below: the app's metrics on python's energies, against python's");

console.log(
  `\nselection over ${s.groups} validation groups (python ${ps.groups}); ${s.mixedLabelAnswers} answer(s) with both labels (python ${ps.mixedLabelAnswers}); bootstrap ${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}`,
);
compare('groups', [
  [s.groups, ps.groups],
  [s.mixedLabelAnswers, ps.mixedLabelAnswers],
]);
console.log('rule             | app acc  95% interval       | python acc  95% interval     | max |Δ|');
for (const r of SELECTION_RULES) {
  const a = s.rules[r];
  const p = ps.rules[r];
  console.log(
    `${r.padEnd(16)} | ${f4(a.accuracy)} ${ci(a.ci)} | ${f4(p?.accuracy)}  ${ci(p?.ci ?? { lo: null, hi: null })} | ${compare(r, [
      [a.accuracy, p?.accuracy],
      [a.ci.lo, p?.ci.lo],
      [a.ci.hi, p?.ci.hi],
    ])}`,
  );
}

const every = s.allQuestions;
const pyEvery = ps.allQuestions;
console.log(`\nover all ${every?.groups ?? '?'} held-out questions (python ${pyEvery?.groups ?? 'none'}) | over the ${s.groups} with both labels (above)`);
if (every) compare('allQuestions.groups', [[every.groups, pyEvery?.groups]]);
for (const r of SELECTION_RULES) {
  const a = every?.rules[r] ?? NaN;
  const p = pyEvery?.rules[r];
  console.log(`${r.padEnd(16)} | app ${f4(a)} | python ${f4(p)} | ${compare(`allQuestions.${r}`, [[a, p]])} | both labels ${f4(s.rules[r].accuracy)}`);
}
console.log(
  `allQuestionsAccuracy (the recommended rule's): app ${f4(same.allQuestionsAccuracy)}, python ${f4(pyFinal.allQuestionsAccuracy)} | ${compare('allQuestionsAccuracy', [[same.allQuestionsAccuracy, pyFinal.allQuestionsAccuracy]])}`,
);

// A fitted T is known only to its search's bracket (LOG_T_TOLERANCE in log T): compare log T against it.
const dLogT = Math.abs(Math.log(s.temperature) - Math.log(num(ps.temperature)));
if (!(dLogT <= LOG_T_TOLERANCE)) failures.push(`temperature: |Δ log T| ${dLogT.toExponential(2)}`);
console.log(
  `\ntemperature: app ${s.temperature.toPrecision(8)}, python ${num(ps.temperature).toPrecision(8)} | |Δ log T| ${dLogT.toExponential(1)} (search bracket ${LOG_T_TOLERANCE})${dLogT <= LOG_T_TOLERANCE ? '' : ' !'}`,
);
// The golden section stops within 1e-6 of its bracket's end in log T: a T that close to a bound is the bound.
if ([TEMPERATURE_MIN, TEMPERATURE_MAX].some((b) => Math.abs(Math.log(s.temperature / b)) < 1e-5))
  console.log(`  (at a bound of the fit's search [${TEMPERATURE_MIN}, ${TEMPERATURE_MAX}]: the fit's criterion is lowest there)`);
console.log(`  source: app "${s.temperatureSource}" — ${sameText('temperature source', s.temperatureSource, ps.temperatureSource)}`);
const c = s.calibration;
const pc = ps.calibration;
console.log(
  `calibration: app "${c.method}", ${c.questions} questions, map ${c.map} — ${sameText('calibration method', `${c.method} ${c.map}`, `${pc.method} ${pc.map}`)}`,
);
compare('calibration questions', [[c.questions, pc.questions]]);
console.log('figure (out of fold)  | app     95% interval       | python  95% interval       | max |Δ|');
for (const [name, x, xi, p, pi] of [
  ['ECE', c.ece, c.eceCi, pc.ece, pc.eceCi],
  ['Brier', c.brier, c.brierCi, pc.brier, pc.brierCi],
  ['log loss', c.logLoss, c.logLossCi, pc.logLoss, pc.logLossCi],
] as const) {
  console.log(
    `${name.padEnd(21)} | ${f4(x)} ${ci(xi)} | ${f4(p)} ${ci(pi ?? { lo: null, hi: null })} | ${compare(name, [
      [x, p],
      [xi.lo, pi?.lo],
      [xi.hi, pi?.hi],
    ])}`,
  );
}
console.log(
  `raw shares at T = 1: ECE app ${f4(c.eceRaw)} python ${f4(pc.eceRaw)}, Brier ${f4(c.brierRaw)} ${f4(pc.brierRaw)}, log loss ${f4(c.logLossRaw)} ${f4(pc.logLossRaw)} | ${compare(
    'raw calibration',
    [
      [c.eceRaw, pc.eceRaw],
      [c.brierRaw, pc.brierRaw],
      [c.logLossRaw, pc.logLossRaw],
    ],
  )}`,
);
const sc = c.selector;
const psc = pc.selector;
console.log(
  `selector's probability (out of fold): ECE ${f4(sc?.ece)} Brier ${f4(sc?.brier)} log loss ${f4(sc?.logLoss)} | python ${f4(psc?.ece)} ${f4(psc?.brier)} ${f4(psc?.logLoss)} | ${compare(
    'selector calibration',
    [
      [sc?.ece ?? NaN, psc?.ece],
      [sc?.brier ?? NaN, psc?.brier],
      [sc?.logLoss ?? NaN, psc?.logLoss],
    ],
  )}`,
);
const m = s.probabilityMap;
const pm = ps.probabilityMap;
const coefficients = (x: ProbabilityMap | undefined): number[] => [x?.platt?.a ?? NaN, x?.platt?.b ?? NaN, ...(x?.selector ?? [])];
console.log(
  `probability map (all held-out questions, for Rerank): use ${m.use}, T ${m.temperature.toPrecision(6)}, Platt ${m.platt ? `a ${m.platt.a.toFixed(4)} b ${m.platt.b.toFixed(4)}` : 'none'}, selector [${(m.selector ?? []).map((b) => b.toFixed(4)).join(', ')}] | ${compare(
    'probability map',
    coefficients(m).map((x, j): [number, number] => [x, coefficients(pm)[j]]),
  )}`,
);
if (m.use !== pm?.use || coefficients(m).length !== coefficients(pm).length) failures.push('probability map differs');
side.binRows('calibrated, out of fold', c.bins, pc.bins);
side.binRows('T = 1', c.binsRaw, pc.binsRaw);

console.log('\nversus majority vote (paired bootstrap): rule | diff 95% interval real | python | max |Δ|');
s.versusMajority.forEach((v, k) => {
  const p = ps.versusMajority[k];
  const d = compare(`versus ${v.rule}`, [
    [v.diff, p?.diff],
    [v.ci.lo, p?.ci.lo],
    [v.ci.hi, p?.ci.hi],
  ]);
  if (v.real !== p?.real) failures.push(`versus ${v.rule}: real differs`);
  console.log(
    `  ${v.rule.padEnd(12)} | ${f4(v.diff)} ${ci(v.ci)} ${v.real ? 'real' : 'not real'} | ${f4(p?.diff)} ${ci(p?.ci ?? { lo: null, hi: null })} ${p?.real ? 'real' : 'not real'} | ${d}`,
  );
});
const bv = s.bestVerifier;
const pbv = ps.bestVerifier;
console.log(
  `best verifier rule: app ${bv?.rule ?? 'none'} ${f4(bv?.diff)} ${ci(bv?.ci ?? { lo: NaN, hi: NaN })} | python ${pbv?.rule ?? 'none'} | ${compare(
    'best verifier gain',
    [
      [bv?.diff ?? NaN, pbv?.diff],
      [bv?.ci.lo ?? NaN, pbv?.ci.lo],
      [bv?.ci.hi ?? NaN, pbv?.ci.hi],
    ],
  )}`,
);
if (bv?.rule !== pbv?.rule) failures.push('best verifier rule differs');
console.log(`\nrecommendation (${s.recommended.rule}): ${s.recommended.sentence}`);
console.log(
  `  python: ${sameText('recommendation', `${s.recommended.rule}: ${s.recommended.sentence}`, `${ps.recommended?.rule}: ${ps.recommended?.sentence}`)}`,
);

side.sourceRows(same.sources, pyFinal.sources);

console.log(
  `\nlargest |app − python| over every figure: ${side.worst.toExponential(2)} (tolerance ${TOLERANCE}); ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);
if (argv.includes('--keep')) console.log(`weights and data kept in ${work}`);
else rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`DISAGREE (${failures.length}): ${failures.join('; ')}`);
  process.exit(1);
}
console.log('app and python agree on every figure');
