/**
 * The same file, seed, fraction, kind and held-out sources give the same training and validation
 * candidates in the app (splitGroups) and in python/ (eorm.split.holdout_split, what eorm.train uses): the
 * groups in the same order, and the same candidates kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_TORCH, PYTHON_DIR, findPython } from '../testing/pythonNode.ts';
import { candidateSources } from './candidateSources.ts';
import { type SplitKind, splitGroups } from './split.ts';
import { datasetLabels } from './tokenize/tokenizeDataset.ts';
import type { Dataset } from './types.ts';
import { readDataset } from './testing/node.ts';

const SAMPLE = 'public/sample/gsm8k_gpt3_openai_4cand.jsonl';
// 300 groups of the sample, with a few lines' sources and labels changed so that groups of every kind
// (all correct, all wrong, both) and candidates without a source occur.
const text = readFileSync(SAMPLE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .slice(0, 1200)
  .map((line, i) => {
    const o = JSON.parse(line) as Record<string, unknown>;
    if (i % 37 === 0) delete o.source;
    if (i % 11 === 0) o.label = 1;
    return JSON.stringify(o);
  })
  .join('\n');

interface Case {
  seed: number;
  trainFraction: number;
  kind: SplitKind;
  holdoutSources: string[];
}

const CASES: Case[] = [
  { seed: 42, trainFraction: 0.8, kind: 'mixed', holdoutSources: [] },
  { seed: 42, trainFraction: 0.8, kind: 'all', holdoutSources: [] },
  { seed: 7, trainFraction: 0.7, kind: 'all', holdoutSources: ['gpt3-6b_verification'] },
  { seed: 3, trainFraction: 0.9, kind: 'mixed', holdoutSources: ['gpt3-175b_finetuning', 'gpt3-6b_finetuning'] },
];

let dataset: Dataset;
beforeAll(async () => {
  const bytes = new TextEncoder().encode(text);
  dataset = await readDataset(new Blob([bytes]).stream());
});

function python(cases: Case[]): Array<{ train: number[]; val: number[]; keep: number[] | null }> {
  const code = [
    'import json, sys',
    'from eorm.formats.jsonl import ingest_jsonl',
    'from eorm.split import holdout_split',
    'q = json.load(sys.stdin)',
    'ds = ingest_jsonl(q["text"].encode("utf-8"))',
    'labels = [c.label for g in ds.groups for c in g.candidates]',
    'sources = [c.source for g in ds.groups for c in g.candidates]',
    'start = [0]',
    'for g in ds.groups: start.append(start[-1] + len(g.candidates))',
    'out = []',
    'for c in q["cases"]:',
    '    train, val, keep = holdout_split(labels, start, sources, c["seed"], c["trainFraction"], c["kind"], c["holdoutSources"])',
    '    out.append({"train": train, "val": val, "keep": keep})',
    'print(json.dumps(out))',
  ].join('\n');
  const { python: py, tried } = findPython();
  if (!py) throw new Error(`No Python for the split parity test (${tried.join('; ')}). ${INSTALL_TORCH}`);
  return JSON.parse(execFileSync(py, ['-c', code], { cwd: PYTHON_DIR, input: JSON.stringify({ text, cases }), encoding: 'utf8', maxBuffer: 1 << 26 }));
}

describe('the split is the same on both sides', () => {
  it('same file, seed, fraction, kind and held-out sources → same training and validation candidates', () => {
    const view = { ...datasetLabels(dataset), sources: candidateSources(dataset) };
    const kinds = { both: 0, allCorrect: 0, allWrong: 0 };
    for (let g = 0; g + 1 < view.groupStart.length; g++) {
      let pos = 0;
      for (let i = view.groupStart[g]; i < view.groupStart[g + 1]; i++) pos += view.labels[i];
      const n = view.groupStart[g + 1] - view.groupStart[g];
      kinds[pos === 0 ? 'allWrong' : pos === n ? 'allCorrect' : 'both']++;
    }
    expect(Math.min(kinds.both, kinds.allCorrect, kinds.allWrong)).toBeGreaterThan(5); // every kind of group occurs
    expect(view.sources.index.some((i) => i < 0)).toBe(true); // and candidates without a source

    const py = python(CASES);
    CASES.forEach((c, k) => {
      const ts = splitGroups(view, c);
      expect(py[k].train, `train of case ${k}`).toEqual(Array.from(ts.train));
      expect(py[k].val, `val of case ${k}`).toEqual(Array.from(ts.val));
      expect(py[k].keep, `keep of case ${k}`).toEqual(ts.keep ? Array.from(ts.keep) : null);
      expect(ts.train.length).toBeGreaterThan(0);
      expect(ts.val.length).toBeGreaterThan(0);
    });
  });
});
