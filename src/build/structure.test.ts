/**
 * The tree's shape, checked like behaviour: imports point down the layers (ui → state → client → worker →
 * engine), no module imports itself through others, and no source file outgrows one job (about 400 lines).
 * Reads the sources as text: every relative `import … from`, `export … from` and `import('…')`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');
const MAX_LINES = 400;
/** Lower layers first; a file may import its own layer and those before it. */
const LAYERS = ['engine', 'worker', 'client', 'state', 'ui'] as const;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const files = sources(SRC);
const rel = (path: string) => relative(SRC, path);
const layerOf = (path: string) => LAYERS.indexOf(rel(path).split('/')[0] as (typeof LAYERS)[number]);

/** Relative imports of one file, resolved to files of the tree. */
function importsOf(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specs.map((s) => resolve(dirname(path), s)).filter((p) => files.includes(p));
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

it('imports never point up a layer (ui → state → client → worker → engine)', () => {
  const upward: string[] = [];
  for (const [from, tos] of graph) {
    const own = layerOf(from);
    if (own < 0) continue; // main.tsx, bench/, build/ sit outside the layers and may use any of them
    for (const to of tos) if (layerOf(to) > own) upward.push(`${rel(from)} → ${rel(to)}`);
  }
  expect(upward).toEqual([]);
});

it('no import cycles between files', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const to of graph.get(f) ?? []) {
      if (state.get(to) === 'open') cycles.push([...stack.slice(stack.indexOf(to)), to].map(rel).join(' → '));
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  expect(cycles).toEqual([]);
});

it(`no source file over ${MAX_LINES} lines`, () => {
  const long = files.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length] as const).filter(([, n]) => n > MAX_LINES);
  expect(long).toEqual([]);
});
