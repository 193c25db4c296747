/**
 * The app's Pick answers and `python -m eorm.score --picks` write the same picks for the same model file and
 * input (issue 33 §2): the same pick, answer, runner-up and rule per question, energies and probabilities
 * within 1e-5 (each side's float arithmetic), on a labelled file (accuracy too) and on the same file without
 * labels or gold. The map is the one recorded in the model file, as both sides read it. Needs a Python with torch.
 */
import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPicksSet, readFiles } from '../data/formats/readFiles.ts';
import { createRng } from '../shared/rng.ts';
import { bytesStream, readDataset, repoSamplePath } from '../data/testing/node.ts';
import { inProcessPool } from '../data/tokenize/tokenizePool.ts';
import type { CandidateText, Dataset, Group } from '../data/types.ts';
import { readModel, writeModel } from '../io/modelFile.ts';
import { readProbabilityMap } from '../metrics/recordedMap.ts';
import type { ProbabilityMap } from '../metrics/selectionTypes.ts';
import { makeConfig } from '../model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../data/tokenize/gpt2.ts';
import { disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import type { PicksRecord } from './picksRecord.ts';
import { type PickRuleChoice, resolveRule } from './picksRule.ts';
import { runPicks } from './picksRun.ts';
import { activeProfile } from '../backend/profile.ts';

const TOL = 1e-5;
const cfg = makeConfig({
  vocabSize: GPT2_VOCAB,
  dModel: 16,
  nHeads: 2,
  nLayers: 2,
  ffnDim: 32,
  dropout: 0,
  maxLen: 40,
  clsId: GPT2_EOT,
  sepId: GPT2_EOT,
  padId: GPT2_EOT,
});
// A map as an evaluation records it: the selector recommended, Platt's map of the vote's share fitted.
const recorded: ProbabilityMap = { temperature: 0.35, platt: { a: 1.4, b: -0.3 }, selector: [-0.4, 3.1, -0.8, -0.2, 0.25], use: 'selector' };
// A selector fitted with a field of the lines (`told`), and the generator feature, as a 6.x evaluation records it.
const fieldMap: ProbabilityMap = { ...recorded, selector: [-0.4, 3.1, -0.8, -0.2, 0.25, 0.5, 2.5], selectorFields: ['told'] };
const { python, tried } = findPython();
let withField = '';
let dir = '';
let weights = '';
let labelled = '';
let bare = '';
let dataset: Dataset;

beforeAll(async () => {
  await tf.setBackend('cpu');
  dir = mkdtempSync(join(tmpdir(), 'eorm-picks-'));
  const init = initParams(cfg, 11);
  const arrays = await paramsToArrays(init, activeProfile());
  disposeParams(init);
  weights = join(dir, 'tiny.safetensors');
  writeFileSync(weights, writeModel({ cfg, tensors: arrays, metadata: { training: { source: 'picksPython.test', probabilityMap: recorded } } }));
  withField = join(dir, 'field.safetensors');
  writeFileSync(withField, writeModel({ cfg, tensors: arrays, metadata: { training: { source: 'picksPython.test', probabilityMap: fieldMap } } }));
  // The sample's first 30 questions (4 candidates each).
  const lines = readFileSync(repoSamplePath(), 'utf8').split('\n').slice(0, 120);
  labelled = join(dir, 'labelled.jsonl');
  writeFileSync(labelled, `${lines.join('\n')}\n`);
  bare = join(dir, 'bare.jsonl');
  writeFileSync(bare, lines.map((l) => JSON.stringify({ ...JSON.parse(l), label: undefined, gold: undefined })).join('\n') + '\n');
  dataset = await readDataset(bytesStream(readFileSync(labelled)));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The app's picks of `groups` with the model file as Pick answers reads it. */
async function appPicks(groups: ReadonlyArray<Group<CandidateText>>, choice: PickRuleChoice, file = weights): Promise<PicksRecord[]> {
  const model = readModel(readFileSync(file).buffer as ArrayBuffer, { copy: true });
  const map = readProbabilityMap(model.training?.probabilityMap)!;
  const params = paramsFromArrays(model.cfg, model.tensors);
  const out: PicksRecord[] = [];
  try {
    await runPicks(groups, {
      model: { cfg: model.cfg, params, map },
      rule: resolveRule(choice, map, true),
      pool: inProcessPool(),
      chunkQuestions: 7,
      onChunk: (r) => void out.push(...r),
      profile: activeProfile(),
    });
  } finally {
    disposeParams(params);
  }
  return out;
}

function pythonPicks(data: string, rule: PickRuleChoice, file = weights): { records: PicksRecord[]; summary: { accuracy: number | null; rule: string } } {
  const out = join(dir, `py-${rule}.jsonl`);
  const stdout = runPython(python!, ['-m', 'eorm.score', '--weights', file, '--data', data, '--picks', out, '--rule', rule], { OMP_NUM_THREADS: '1' });
  const records = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as PicksRecord);
  return { records, summary: JSON.parse(stdout.trim().split('\n').pop()!) };
}

function expectSame(app: PicksRecord[], py: PicksRecord[]): void {
  expect(py.length).toBe(app.length);
  // Picks that differ from question to question, so agreeing says something.
  expect(new Set(app.map((r) => r.index)).size).toBeGreaterThan(1);
  app.forEach((a, g) => {
    const p = py[g];
    expect(Object.keys(p)).toEqual(Object.keys(a));
    const exact = (r: PicksRecord) => ({
      ...r,
      energies: r.energies.length,
      probability: r.probability === null,
      runnerUpProbability: r.runnerUpProbability === null,
    });
    expect(exact(p), `question ${g}`).toEqual(exact(a));
    for (const [x, y] of [[a.probability, p.probability], [a.runnerUpProbability, p.runnerUpProbability], ...a.energies.map((e, i) => [e, p.energies[i]])]) {
      expect(Math.abs((x ?? 0) - (y ?? 0)), `question ${g}`).toBeLessThan(TOL);
    }
  });
}

describe('the app and eorm.score --picks write the same picks', () => {
  for (const rule of ['recommended', 'weightedVote'] as const) {
    it(`${rule}: a labelled file, with its accuracy`, async () => {
      if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
      const app = await appPicks(dataset.groups, rule);
      const py = pythonPicks(labelled, rule);
      expectSame(app, py.records);
      expect(app[0].rule).toBe(rule === 'recommended' ? 'selector' : 'weightedVote');
      expect(py.summary.accuracy).toBeCloseTo(app.filter((r) => r.correct === 1).length / app.length, 12);
    });
  }

  it('candidates with the same tokens in another order: both sides tie them and pick the first (issue 48, point 9)', async () => {
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    // Words each with their leading space are tokens of their own, so a reordering keeps the token multiset.
    const rng = createRng(9);
    const words = ' the answer is so we add then take away half of it and get'
      .split(' ')
      .slice(1)
      .map((w) => ` ${w}`);
    const text = () => Array.from({ length: 6 + rng.int(10) }, () => (rng.int(3) === 0 ? ` ${rng.int(100)}` : words[rng.int(words.length)])).join('');
    // Short questions: the inputs stay under maxLen (40), as a cut would keep other tokens of each order.
    const lines = Array.from({ length: 24 }, (_, q) => {
      const a = text();
      const shuffled = a
        .split(/(?= )/)
        .sort(() => rng.next() - 0.5)
        .join('');
      return [text(), a, shuffled].map((t) => JSON.stringify({ question: `What is ${q} + ${q}?`, question_id: `q${q}`, gen_text: t }));
    }).flat();
    const file = join(dir, 'reordered.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readFiles([{ name: 'reordered.jsonl', stream: bytesStream(readFileSync(file)), size: null }]);
    const app = await appPicks(read.groups, 'bestOfN');
    const py = pythonPicks(file, 'bestOfN').records;
    expect(py.filter((r) => r.energies[1] !== r.energies[2]).map((r) => r.group)).toEqual([]);
    expect(app.filter((r) => r.energies[1] !== r.energies[2]).map((r) => r.group)).toEqual([]);
    expectSame(app, py);
    expect(app.filter((r) => r.index === 2)).toEqual([]);
  });

  it('no model: majority vote and the generator vote learnt without labels, app and Python alike', async () => {
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    for (const rule of ['majority', 'generatorVoteFree'] as const) {
      const app: PicksRecord[] = [];
      await runPicks(dataset.groups, {
        model: null,
        rule,
        pool: inProcessPool(),
        chunkQuestions: 7,
        onChunk: (r) => void app.push(...r),
        profile: activeProfile(),
      });
      const out = join(dir, `free-${rule}.jsonl`);
      runPython(python, ['-m', 'eorm.score', '--data', labelled, '--picks', out, '--rule', rule], { OMP_NUM_THREADS: '1' });
      const py = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as PicksRecord);
      expectSame(app, py);
      expect(app.every((r) => r.rule === rule && r.energies.length === 0)).toBe(true);
    }
  });

  it('a selector that reads a field of the lines: the same picks, which the field moves (issue 42, point 3)', async () => {
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    // `told` leans towards the right answers, with noise, and is missing on every 7th line (the question's mean there).
    const rng = createRng(5);
    const lines = readFileSync(labelled, 'utf8')
      .trim()
      .split('\n')
      .map((l, i) => {
        const o = JSON.parse(l) as { label: number };
        return JSON.stringify(i % 7 === 3 ? o : { ...o, told: o.label + 1.5 * rng.next() });
      });
    const file = join(dir, 'told.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const read = await readFiles([{ name: 'told.jsonl', stream: bytesStream(readFileSync(file)), size: null }]);
    const app = await appPicks(read.groups, 'selector', withField);
    expectSame(app, pythonPicks(file, 'selector', withField).records);
    const without = await appPicks(read.groups, 'selector');
    const moved = app.filter((r, g) => r.answer !== without[g].answer).length;
    expect(moved).toBeGreaterThan(0);
    const right = (rs: PicksRecord[]) => rs.filter((r) => r.correct === 1).length;
    expect(right(app)).toBeGreaterThan(right(without));
  });

  it('the same file without labels or gold', async () => {
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const read = await readFiles([{ name: 'bare.jsonl', stream: bytesStream(readFileSync(bare)), size: null }]);
    expect(isPicksSet(read)).toBe(true);
    const app = await appPicks(read.groups, 'recommended');
    const py = pythonPicks(bare, 'recommended');
    expectSame(app, py.records);
    expect(py.records.every((r) => r.correct === null)).toBe(true);
    expect(py.summary.accuracy).toBeNull();
  });
});
