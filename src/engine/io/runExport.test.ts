import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitRecord } from '../data/splitRecord.ts';
import { energyHistogram } from '../metrics/histogram.ts';
import { bestOfNCurve } from '../metrics/ncurve.ts';
import { type ScoredGroup, evaluateGroups } from '../metrics/summary.ts';
import { makeConfig } from '../model/config.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../train/settings.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import { type ExportedEvaluation, type RunExport, countAtMaxLen, metricsJsonl, runRecords } from './runExport.ts';

/**
 * metrics.jsonl as `eorm.train` writes it now: three steps of a very small model on the built-in sample,
 * with a validation every two steps (a few seconds on a CPU). Needs a Python with torch, as the other
 * interop tests.
 */
function pythonMetrics(): string[] {
  const { python, tried } = findPython();
  if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
  const out = mkdtempSync(join(tmpdir(), 'eorm-metrics-'));
  try {
    const data = join(import.meta.dirname, '../../../public/sample/gsm8k_gpt3_openai_4cand.jsonl');
    const flags = ['--max-len', '32', '--d-model', '16', '--n-heads', '2', '--epochs', '1', '--max-steps', '3', '--eval-every', '2', '--curve-subsets', '4'];
    runPython(python, ['-m', 'eorm.train', '--data', data, '--out', out, ...flags, '--quiet', '--device', 'cpu', '--resume', 'never'], {
      OMP_NUM_THREADS: '1',
    });
    return readFileSync(join(out, 'metrics.jsonl'), 'utf8').trimEnd().split('\n');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Keys the app's evaluations carry that Python's may not write yet (or writes only for some data). */
const OPTIONAL_EVAL_KEYS = new Set(['selection', 'allQuestionsAccuracy', 'sources']);
/** Free-form by design: each writer records its own settings (Python its flags, the app its form). */
const OPAQUE = new Set(['settings', 'resumedWith', 'selection', 'sources']);

const groups: ScoredGroup[] = [
  { energies: [0.1, 0.5, 0.9, 0.2], labels: [1, 0, 0, 1], answers: ['18', '26', '24', '18'] },
  { energies: [0.3, -0.2, 0.8, NaN], labels: [0, 1, 0, 0], answers: ['5', '6', null, '5'] },
];

function evaluation(epoch: number, step: number, isBest: boolean): ExportedEvaluation {
  return {
    set: 'val',
    epoch,
    step,
    epochTrainLoss: epoch === 0 ? null : 0.69,
    isBest,
    summary: evaluateGroups(groups),
    histogram: energyHistogram(groups, 30),
    curve: bestOfNCurve(groups, { seed: 1, subsetsPerN: 4 }),
  };
}

const run = (over: Partial<RunExport> = {}): RunExport => ({
  version: 'eorm studio',
  config: makeConfig({ dModel: 16, nHeads: 2, maxLen: 32 }),
  settings: { ...DEFAULT_TRAIN_SETTINGS, epochs: 2 },
  split: splitRecord(42, 0.8, `sha256:${'ab'.repeat(32)}`, 'all'),
  trainGroups: 3,
  valGroups: 2,
  candidates: 20,
  rejectedLines: 0,
  atMaxLen: 4,
  device: 'wasm',
  points: [0, 1, 2, 3, 4, 5].map((step) => ({ step, epoch: step < 3 ? 1 : 2, loss: 0.7 - step / 100, smoothed: 0.7, lr: 1e-4, gradNorm: 0.3 })),
  evaluations: [evaluation(0, 0, false), evaluation(1, 3, true), evaluation(2, 6, false)],
  end: { reason: 'finished', steps: 6, skippedSteps: 0, bestValBestOfN: 0.75, seconds: 1.5 },
  ...over,
});

type Shape = { [key: string]: Shape } | 'value';

/** Key structure of a JSON value: objects by key (sorted), arrays by their first element; values are leaves. */
function shape(v: unknown, key = ''): Shape {
  if (OPAQUE.has(key)) return 'value';
  if (Array.isArray(v)) return v.length > 0 && typeof v[0] === 'object' && v[0] !== null ? { '[]': shape(v[0]) } : 'value';
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k], k)]),
    );
  }
  return 'value';
}

/** Shapes per record type, Python's optional `resume` record read as `config`. */
function shapesByType(lines: string[]): Map<string, Shape> {
  const out = new Map<string, Shape>();
  for (const line of lines) {
    const rec = JSON.parse(line) as Record<string, unknown>;
    for (const k of OPTIONAL_EVAL_KEYS) if (rec.type === 'eval') delete rec[k];
    if (!out.has(String(rec.type))) out.set(String(rec.type), shape(rec));
  }
  return out;
}

describe('runExport: a run as eorm.train writes metrics.jsonl', () => {
  it('writes config, the steps, each validation after the steps before it, and the end', () => {
    const types = runRecords(run()).map((r) => `${r.type}${r.type === 'eval' ? `@${r.step}` : r.type === 'step' ? r.step : ''}`);
    expect(types).toEqual(['config', 'eval@0', 'step0', 'step1', 'step2', 'eval@3', 'step3', 'step4', 'step5', 'eval@6', 'end']);
  });

  it('derives the step counts as the loop does, and leaves out the end of a run still going', () => {
    const [config] = runRecords(run());
    expect(config).toMatchObject({ stepsPerEpoch: 3, totalSteps: 6, warmupSteps: 0, autocast: null, step: 0, device: 'wasm' });
    expect(runRecords(run({ end: null })).at(-1)!.type).toBe('eval');
  });

  it('one JSON object per line, NaN written as null (as Python writes it)', () => {
    const text = metricsJsonl(run());
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    expect(text).not.toMatch(/NaN|Infinity/);
  });

  it('carries an evaluation’s selection report after its curve', () => {
    const withSel = runRecords(run({ evaluations: [{ ...evaluation(1, 3, true), selection: { temperature: 0.5 }, allQuestionsAccuracy: 0.6 }] }));
    const ev = withSel.find((r) => r.type === 'eval')!;
    expect(Object.keys(ev).slice(-3)).toEqual(['curve', 'selection', 'allQuestionsAccuracy']);
  });

  it('has the same record types, keys and nested keys as a metrics.jsonl written by eorm.train', { timeout: 120_000 }, () => {
    const python = shapesByType(pythonMetrics());
    const app = shapesByType(metricsJsonl(run()).trimEnd().split('\n'));
    expect([...app.keys()].sort()).toEqual([...python.keys()].filter((t) => t !== 'skip' && t !== 'resume').sort());
    for (const [type, s] of app) expect(s, type).toEqual(python.get(type));
  });

  it('counts the candidates whose input fills maxLen', () => {
    expect(countAtMaxLen({ offsets: Uint32Array.from([0, 3, 8, 16, 20]) }, 5)).toBe(2);
  });
});
