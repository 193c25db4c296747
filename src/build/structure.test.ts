/**
 * The tree's shape, checked like behaviour: imports point down the layers (ui → state → client → worker →
 * engine) and down between engine's folders, no module imports itself through others, each op's kernels
 * sit in its folder, no source file outgrows one job (300 lines; a test 400) and no folder holds more than 25
 * source files at one level.
 * Reads the sources as text: every relative `import … from`, `export … from` and `import('…')`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');
const MAX_LINES = 300;
/** Tests hold tables of cases and may run longer; src/ holds no generated data. */
const MAX_TEST_LINES = 400;
/** Source files (tests not counted) one folder may hold at one level: past that, a folder is split by job. */
const MAX_FOLDER_FILES = 25;
const isTest = (path: string) => /\.test\.tsx?$/.test(path);
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
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2],
  );
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

const lineCounts = files.map((f) => [rel(f), readFileSync(f, 'utf8').split('\n').length] as const);

it(`no source file over ${MAX_LINES} lines, no test over ${MAX_TEST_LINES}`, () => {
  const long = lineCounts.filter(([f, n]) => n > (isTest(f) ? MAX_TEST_LINES : MAX_LINES));
  expect(long).toEqual([]);
});

it(`no folder holds more than ${MAX_FOLDER_FILES} source files at one level (tests not counted)`, () => {
  const perFolder = new Map<string, number>();
  for (const f of files) if (!isTest(f)) perFolder.set(rel(dirname(f)), (perFolder.get(rel(dirname(f))) ?? 0) + 1);
  expect([...perFolder].filter(([, n]) => n > MAX_FOLDER_FILES)).toEqual([]);
});

/** Pairs of engine's folders [below, above]: no file of the first imports the second. */
const BELOW: Array<[string, string]> = [
  // The helpers every folder shares (the seeded generator, yielding to the event loop) import none of them.
  ...['data', 'metrics', 'io', 'gpuMemory', 'kernels', 'backend', 'model', 'score', 'train', 'testing'].map((above): [string, string] => ['shared', above]),
  ['kernels', 'backend'], // the profile names the kernels; an op is handed what the profile says
  ['kernels', 'train'],
  ['gpuMemory', 'kernels'],
  ['gpuMemory', 'backend'],
  ['gpuMemory', 'model'],
  ['gpuMemory', 'train'],
  ['gpuMemory', 'score'],
  ['backend', 'model'], // the model's ops read the profile; the profile knows no model
  ['backend', 'score'],
  ['backend', 'train'],
  ['model', 'score'],
  ['model', 'train'],
  ['score', 'train'], // training evaluates by scoring; scoring knows no training
  ['data', 'metrics'], // metrics read datasets and draw with data's RNG; a dataset's figures live in metrics/
  ['data', 'io'], // records' files read data's splits; how older records read lives in data/
  ['data', 'model'],
  ['data', 'score'],
  ['data', 'train'],
];
const engineFolder = (path: string) => (rel(path).startsWith('engine/') ? rel(path).split('/')[1] : null);

it("imports never run back up between engine's folders (gpuMemory, kernels, backend, model, score, train from the bottom)", () => {
  const upward: string[] = [];
  for (const [from, tos] of graph) {
    if (isTest(from) || /\/testing\//.test(rel(from))) continue; // a test (and its helpers) may build its case with what lies above
    for (const to of tos) {
      if (BELOW.some(([below, above]) => engineFolder(from) === below && engineFolder(to) === above)) upward.push(`${rel(from)} → ${rel(to)}`);
    }
  }
  expect(upward).toEqual([]);
});

/** kernels/' folders that are no op: webgpu/ holds what the WebGPU kernels are written with (programs, in-place dispatch, replay). */
const KERNEL_TOOLS = new Set(['webgpu']);
const opFolder = (path: string) => {
  const m = /^engine\/kernels\/([^/]+)\/[^/]+$/.exec(rel(path));
  return m && !KERNEL_TOOLS.has(m[1]) ? m[1] : null;
};
const text = (path: string) => readFileSync(path, 'utf8');
const compareHelpers = files.filter((f) => /export async function compareOps\b/.test(text(f)));

it("each op's implementations and parity checks sit in its folder, kernels/<op>/, named for where they run", () => {
  const misplaced: string[] = [];
  for (const f of files) {
    if (isTest(f)) continue;
    const imports = graph.get(f) ?? [];
    const role = /\bkernelFunc\b/.test(text(f))
      ? /^(webgpu|host)\w*\.ts$/ // a kernel
      : imports.some((t) => /\/wasmModule\.ts$|\/wasm\/module\.ts$/.test(t))
        ? /^wasm\w*\.ts$/ // a WebAssembly SIMD loop
        : imports.some((t) => compareHelpers.includes(t)) && /\b(compareOps|hasKernel|relativeError)\(/.test(text(f))
          ? /parity\w*\.ts$/i // a parity check of a kernel against its composition
          : null;
    if (role && !(opFolder(f) && role.test(basename(f)))) misplaced.push(rel(f));
  }
  expect(misplaced).toEqual([]);
});

it("kernels' shared tools import no op folder (only ops.ts gathers the ops' specs)", () => {
  const upward: string[] = [];
  for (const [from, tos] of graph) {
    const r = rel(from);
    if (isTest(from) || !r.startsWith('engine/kernels/') || opFolder(from) || r === 'engine/kernels/ops.ts') continue;
    for (const to of tos) if (opFolder(to)) upward.push(`${r} → ${rel(to)}`);
  }
  expect(upward).toEqual([]);
});

/**
 * Where the backend's profile may be looked up (activeProfile()): backend/ (which keeps it), the worker (where
 * a run, a scoring call or a peer's request starts, and takes it once) and the harnesses of engine/testing/
 * (tests, the bench and e2e pages call it too). Every other engine folder is handed it.
 */
const LOOKUP_HERE = /^(engine\/backend|engine\/testing|worker)\//;

it("the backend's profile is handed down from where a run, a scoring call or a peer's request starts, never looked up below", () => {
  const lookups: string[] = [];
  for (const f of files) {
    const r = rel(f);
    if (isTest(f) || !/^(engine|worker)\//.test(r) || LOOKUP_HERE.test(r)) continue;
    text(f)
      .split('\n')
      .forEach((line, i) => {
        if (/\bactiveProfile\b/.test(line)) lookups.push(`${r}:${i + 1}`);
      });
  }
  expect(lookups).toEqual([]);
});
