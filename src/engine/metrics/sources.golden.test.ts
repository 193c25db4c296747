/**
 * Pins the per-source audit across the app and python/: python/tests/golden/sources.json holds inputs
 * (the built-in sample's labels and sources, with seeded energies) and the rows sourceAudit gives for them;
 * this test checks the app still gives exactly those rows, python/tests/test_sources.py that eorm.metrics.sources
 * does. After a deliberate change of the rules, rewrite the file with
 *   EORM_WRITE_GOLDEN=1 npx vitest run src/engine/metrics/sources.golden.test.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidateSources } from '../data/candidateSources.ts';
import { createRng } from '../shared/rng.ts';
import { fileStream, readDataset, repoSamplePath } from '../data/testing/node.ts';
import { decodeGolden as decode, encodeGolden as encode, tenth } from '../testing/goldenJson.ts';
import { PYTHON_DIR } from '../testing/pythonNode.ts';
import type { SourceRow } from './selectionTypes.ts';
import { type SourcedGroup, sourceAudit } from './sources.ts';

const GOLDEN = join(PYTHON_DIR, 'tests/golden/sources.json');
const GROUPS = 240;

interface Case {
  name: string;
  names: string[];
  groups: Array<{ energies: number[]; labels: number[]; sources: number[] }>;
  rows?: SourceRow[];
}

async function cases(): Promise<Case[]> {
  const ds = await readDataset(fileStream(repoSamplePath()));
  const { names, index } = candidateSources(ds);
  const rng = createRng(20);
  const sampled = (energy: (label: number, source: number) => number): Case['groups'] => {
    let c = 0;
    return ds.groups.slice(0, GROUPS).map((g) =>
      g.candidates.reduce<Case['groups'][number]>(
        (out, cand) => {
          const s = index[c++];
          out.labels.push(cand.label);
          out.sources.push(s);
          out.energies.push(energy(cand.label, s));
          return out;
        },
        { energies: [], labels: [], sources: [] },
      ),
    );
  };
  return [
    // A verifier that learned "source 0 wrote it" more than "it is right": source 0 should be flagged.
    { name: 'shortcut', names, groups: sampled((label, s) => tenth(2 * rng.next() - label - (s === 0 ? 1.2 : 0))) },
    // A verifier that mostly reads correctness.
    { name: 'labels', names, groups: sampled((label) => tenth(2 * rng.next() - 1.5 * label)) },
    {
      name: 'edges',
      names: ['a', 'b', 'c'],
      groups: [
        { energies: [NaN, 1, 1], labels: [1, 0, 1], sources: [0, 1, 2] },
        { energies: [Infinity, -Infinity, NaN], labels: [0, 1, 1], sources: [2, -1, 0] },
        { energies: [], labels: [], sources: [] },
        { energies: [0.3, 0.3, 0.3, 0.3], labels: [1, 0, 0, 1], sources: [1, 1, 0, 0] },
        { energies: [2, -1], labels: [0, 0], sources: [-1, 1] },
      ],
    },
  ];
}

describe('per-source audit golden (app ↔ eorm.metrics.sources)', () => {
  it('gives the rows recorded for python/tests/golden/sources.json', async () => {
    const now = (await cases()).map((c) => ({ ...c, rows: sourceAudit(c.groups as SourcedGroup[], c.names) }));
    if (process.env.EORM_WRITE_GOLDEN === '1') {
      writeFileSync(GOLDEN, `${encode({ note: 'Written by src/engine/metrics/sources.golden.test.ts (EORM_WRITE_GOLDEN=1); do not edit.', cases: now })}\n`);
    }
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: write it with EORM_WRITE_GOLDEN=1`).toBe(true);
    const golden = decode(readFileSync(GOLDEN, 'utf8')) as { cases: Case[] };
    expect(golden.cases).toEqual(now);
    // The cases test what they are meant to.
    const [shortcut, labels] = now;
    expect(shortcut.rows!.filter((r) => r.flagged).map((r) => r.source)).toEqual([shortcut.names[0]]);
    expect(labels.rows!.some((r) => r.flagged)).toBe(false);
    expect(shortcut.rows).toHaveLength(4);
  });
});
