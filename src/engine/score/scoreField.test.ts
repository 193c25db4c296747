import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withSources } from '../data/candidateSources.ts';
import { createRng } from '../shared/rng.ts';
import { readTrainingData, repoSamplePath } from '../data/testing/node.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import { fieldEnergies, scoreFieldEvaluation, scoreFields } from './scoreField.ts';

const dir = mkdtempSync(join(tmpdir(), 'eorm-scores-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The sample's first 60 questions, each line with a random `energy` and a `score` (its negation), an aligned
 * `quality` on some lines only, and `told`, leaning towards the label (missing on every 9th line).
 */
function scoredFile(name: string, sources = true): string {
  const rng = createRng(11);
  const lines = readFileSync(repoSamplePath(), 'utf8')
    .split('\n')
    .slice(0, 240)
    .map((l, i) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      const energy = rng.next() * 4 - 2;
      if (!sources) delete o.source;
      const told = i % 9 === 4 ? {} : { told: (o.label === 1 ? 1 : 0) + 0.5 * rng.next() };
      return JSON.stringify({ ...o, energy, score: -energy, ...(i % 2 === 0 ? { quality: 1 } : {}), ...told });
    });
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** `got` equals `want` with numbers to 1e-7 relative (float sums in another order; the fits carry them a little further). */
function expectClose(got: unknown, want: unknown, path = ''): void {
  if (typeof want === 'number' && typeof got === 'number') expect(Math.abs(got - want), path).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(want)));
  else if (want !== null && typeof want === 'object') {
    expect(Object.keys(got as object).sort(), path).toEqual(Object.keys(want).sort());
    for (const k of Object.keys(want)) expectClose((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], `${path}.${k}`);
  } else expect(got, path).toEqual(want);
}

describe('evaluating scores a file brings, without a model', () => {
  it('offers the fields every candidate line carries, reads them as energies, and names the first line without one', async () => {
    const d = await readTrainingData(readFileSync(scoredFile('fields.jsonl')));
    expect(scoreFields(d.dataset.groups)).toEqual(['energy', 'score']);
    const e = fieldEnergies(d.dataset.groups, 'score', true);
    expect(Array.from(e)).toEqual(Array.from(fieldEnergies(d.dataset.groups, 'energy', false)));
    expect(() => fieldEnergies(d.dataset.groups, 'quality', false)).toThrow(/line 2: field "quality" is missing or not a number/);
  });

  it('gives the figures eorm.score --score-field prints, generators and the length check included', async () => {
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    for (const sources of [true, false]) {
      const path = scoredFile(`scored-${sources}.jsonl`, sources);
      const d = await readTrainingData(readFileSync(path));
      const app = scoreFieldEvaluation(d.dataset.groups, withSources(d.view, d.dataset), d.answers, 'score', true, 42);
      const out = runPython(python, ['-m', 'eorm.score', '--data', path, '--score-field', 'score', '--higher-is-better', '--seed', '42', '--json'], {
        OMP_NUM_THREADS: '1',
      });
      const py = JSON.parse(out.trim()) as { selection: unknown; metrics: unknown; higherIsBetter: boolean };
      expect(py.higherIsBetter).toBe(true);
      expect((app.selection.generators !== undefined) === sources).toBe(true);
      expectClose(JSON.parse(JSON.stringify(app.selection)), py.selection, `sources ${sources}`);
      expectClose(JSON.parse(JSON.stringify(app.summary)), py.metrics);
    }
  }, 240_000);

  it('with a field the selector also reads: the same figures as eorm.score --selector-field, and the field recorded in the map', async () => {
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python with torch (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const path = scoredFile('told.jsonl');
    const d = await readTrainingData(readFileSync(path));
    const app = scoreFieldEvaluation(d.dataset.groups, withSources(d.view, d.dataset), d.answers, 'score', true, 42, ['told', 'score']);
    expect(app.selection.probabilityMap.selectorFields).toEqual(['told']);
    const args = ['-m', 'eorm.score', '--data', path, '--score-field', 'score', '--higher-is-better', '--selector-field', 'told', '--json'];
    const py = JSON.parse(runPython(python, args, { OMP_NUM_THREADS: '1' }).trim()) as { selection: unknown };
    expectClose(JSON.parse(JSON.stringify(app.selection)), py.selection);
    const plain = scoreFieldEvaluation(d.dataset.groups, withSources(d.view, d.dataset), d.answers, 'score', true, 42);
    expect(app.selection.rules.selector.accuracy).toBeGreaterThan(plain.selection.rules.selector.accuracy);
  }, 240_000);
});
