import { describe, expect, it } from 'vitest';
import { candidateSources, withSources } from './candidateSources.ts';
import { bytesStream, fileStream, readDataset, repoSamplePath } from './testing/node.ts';
import { trainingView } from './tokenize/tokenizeDataset.ts';
import type { TokenizedSet } from './types.ts';

const line = (q: string, label: number, source?: string | null) =>
  JSON.stringify({ question: q, gen_text: `answer ${label}`, label, ...(source === undefined ? {} : { source }) });

const fakeTokens = (n: number): TokenizedSet => ({
  maxLen: 4,
  tokens: new Uint16Array(n),
  offsets: Uint32Array.from({ length: n + 1 }, (_, i) => i),
  truncated: 0,
});

describe('candidateSources', () => {
  it('indexes each candidate in view order by first appearance; no source is -1', async () => {
    // Group order is by first appearance: q1's candidates come first though a q2 line sits between them.
    const text = [line('q1', 1, 'b'), line('q2', 0, 'a'), line('q1', 0), line('q1', 1, 'a'), line('q2', 1, null), line('q2', 0, 'b')].join('\n');
    const ds = await readDataset(bytesStream(text));
    const s = candidateSources(ds);
    expect(s.names).toEqual(['b', 'a']);
    expect([...s.index]).toEqual([0, -1, 1, 1, -1, 0]);
    expect(candidateSources(ds)).toBe(s);
  });

  it('is on every new training view, and rebuilt for a view stored without it', async () => {
    const ds = await readDataset(bytesStream([line('q', 1, 'x'), line('q', 0, 'y')].join('\n')));
    const view = trainingView(ds, fakeTokens(2));
    expect(view.sources).toBe(candidateSources(ds));
    expect(withSources(view, ds)).toBe(view);
    const { sources: _dropped, ...old } = view;
    const rebuilt = withSources(old, ds);
    expect(rebuilt.sources!.names).toEqual(['x', 'y']);
    expect(rebuilt.labels).toBe(view.labels);
  });

  it('reads the four generators of the built-in sample, one candidate each per question', async () => {
    const ds = await readDataset(fileStream(repoSamplePath()));
    const s = candidateSources(ds);
    expect(s.names).toHaveLength(4);
    expect(s.index.every((i) => i >= 0)).toBe(true);
    const counts = s.names.map((_, k) => s.index.filter((i) => i === k).length);
    expect(counts).toEqual(s.names.map(() => ds.groups.length));
  });
});
