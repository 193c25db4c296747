/**
 * Pins the length check across the app and python/: python/tests/golden/length_bias.json holds the answer
 * tokens of the built-in sample's first questions (answerLength.ts on the app's 4096-id inputs) and length
 * checks (lengthBias.ts) of seeded energies on them; this test checks the app still gives exactly those,
 * python/tests/test_length_bias.py that eorm.metrics.length_bias does. After a deliberate change, rewrite the file with
 *   EORM_WRITE_GOLDEN=1 npx vitest run src/engine/metrics/lengthBias/lengthBias.golden.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { fileStream, readDataset, repoSamplePath } from '../../data/testing/node.ts';
import { tokenizeChunk } from '../../data/tokenize/tokenize.ts';
import { GPT2_EOT } from '../../data/tokenize/gpt2.ts';
import { decodeGolden as decode, encodeGolden as encode, tenth } from '../../testing/goldenJson.ts';
import { PYTHON_DIR } from '../../testing/pythonNode.ts';
import { answerTokens } from './answerLength.ts';
import type { FiguresOver } from '../heldOut.ts';
import { lengthBias } from './lengthBias.ts';
import type { LengthBias } from './lengthBiasTypes.ts';

const GOLDEN = join(PYTHON_DIR, 'tests/golden/length_bias.json');
const GROUPS = 120;
const SEED = 5;

interface Group {
  energies: number[];
  labels: number[];
  lengths: number[];
}
interface Case {
  name: string;
  figuresOver: FiguresOver;
  groups: Group[];
  result?: LengthBias;
}

async function sample(): Promise<{ lines: number[]; groups: Array<{ labels: number[]; lengths: number[] }> }> {
  const ds = await readDataset(fileStream(repoSamplePath()));
  const groups = ds.groups.slice(0, GROUPS);
  const chunk = tokenizeChunk({
    maxLen: 4096,
    clsId: GPT2_EOT,
    sepId: GPT2_EOT,
    questions: groups.map((g) => g.question),
    groupSizes: groups.map((g) => g.candidates.length),
    genTexts: groups.flatMap((g) => g.candidates.map((c) => c.genText)),
  });
  const lengths = answerTokens(
    { tokens: { maxLen: 4096, ...chunk }, labels: new Uint8Array(0), groupStart: new Uint32Array(0) },
    0,
    chunk.offsets.length - 1,
    GPT2_EOT,
  );
  let c = 0;
  return {
    lines: groups.flatMap((g) => g.candidates.map((x) => x.line)),
    groups: groups.map((g) => ({ labels: g.candidates.map((x) => x.label), lengths: g.candidates.map(() => lengths[c++]) })),
  };
}

async function cases(): Promise<{ lines: number[]; lengths: number[]; cases: Case[] }> {
  const s = await sample();
  const rng = createRng(21);
  const energies = (e: (label: number, length: number) => number): Group[] =>
    s.groups.map((g) => ({ ...g, energies: g.labels.map((l, i) => tenth(e(l, g.lengths[i]))) }));
  const lengthy = energies((label, length) => 2 * rng.next() - 0.5 * label - length / 60);
  const labels = energies((label) => 2 * rng.next() - 1.5 * label);
  const edges: Group[] = [
    { energies: [NaN, 1, Infinity, 1], labels: [1, 0, 1, 0], lengths: [3, 3, 9, 1] },
    { energies: [-Infinity, 2, 2], labels: [0, 1, 1], lengths: [5, 5, 5] },
    { energies: [0.5, 0.5, 0.5], labels: [1, 0, 0], lengths: [7, 2, 4] },
    { energies: [1, 2], labels: [1, 1], lengths: [1, 2] },
    { energies: [], labels: [], lengths: [] },
  ];
  return {
    lines: s.lines,
    lengths: s.groups.flatMap((g) => g.lengths),
    cases: [
      // A verifier that leans on length: energy falls with length as well as with correctness.
      { name: 'lengthy', figuresOver: 'bothLabels', groups: lengthy },
      { name: 'lengthy-test', figuresOver: 'allQuestions', groups: lengthy },
      // A verifier that reads correctness only.
      { name: 'labels', figuresOver: 'bothLabels', groups: labels },
      { name: 'edges', figuresOver: 'allQuestions', groups: edges },
    ],
  };
}

describe('length check golden (app ↔ eorm.metrics.length_bias)', () => {
  it('gives the answer tokens and figures recorded for python/tests/golden/length_bias.json', async () => {
    const c = await cases();
    const now = {
      ...c,
      cases: c.cases.map((k) => ({
        ...k,
        result: lengthBias(
          k.groups.map((g) => ({ ...g, answers: g.labels.map(() => null) })),
          { seed: SEED, figuresOver: k.figuresOver },
        ),
      })),
    };
    if (process.env.EORM_WRITE_GOLDEN === '1') {
      writeFileSync(
        GOLDEN,
        `${encode({ note: 'Written by src/engine/metrics/lengthBias.golden.test.ts (EORM_WRITE_GOLDEN=1); do not edit.', seed: SEED, ...now })}\n`,
      );
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: write it with EORM_WRITE_GOLDEN=1`).toBe(true);
    const golden = decode(readFileSync(GOLDEN, 'utf8')) as typeof now & { seed: number };
    expect(golden.seed).toBe(SEED);
    expect(golden.lines).toEqual(now.lines);
    expect(golden.lengths).toEqual(now.lengths);
    expect(golden.cases).toEqual(now.cases);
    // The cases test what they are meant to.
    const [lengthy, , labels] = now.cases;
    expect(lengthy.result.real && lengthy.result.lean > 0).toBe(true);
    expect(labels.result.real).toBe(false);
    expect(new Set(now.lengths).size).toBeGreaterThan(50);
  });
});
