/**
 * The app and the Python package (python/eorm/weights.py) must accept and refuse exactly the same model
 * files. 1,000 seeded mutations of valid files (header JSON: offsets, dtypes, shapes, metadata and config
 * types, duplicate / missing / extra tensors, number literals, nesting depth; NaN bytes, truncation, the
 * header length field) are written to a folder; readModel gives the app's verdict here, and
 * python/scripts/model_verdicts.py gives Python's. Both must agree file by file: both refuse, or both
 * read the same config and the same float32 tensor bytes. Needs a Python with torch, as pythonInterop does.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { makeConfig, type ModelConfig, paramShapes } from '../model/config.ts';
import { findPython, INSTALL_TORCH, runPython } from '../testing/pythonNode.ts';
import { readModel, writeModel } from './modelFile.ts';
import { numel, SafetensorsError } from './safetensors.ts';
import { TINY, build, draft, pick } from '../testing/modelFileDrafts.ts';
import { MUTATIONS } from '../testing/modelFileMutations.ts';

const FILES = 1_000;

function baseFile(cfg: ModelConfig, f16: readonly string[]): Uint8Array {
  const tensors = new Map(
    paramShapes(cfg).map(([name, shape], k) => [name, Float32Array.from({ length: numel(shape) }, (_, i) => (((i * 7 + k * 13) % 61) - 30) / 64)]),
  );
  return writeModel({ cfg, tensors, metadata: { tokenizer: 'r50k_base', training: { steps: 3 } }, f16 });
}

interface Verdict {
  file: string;
  ok: boolean;
  cfg?: ModelConfig;
  digest?: string;
  error?: string;
  crash?: string;
}

function appVerdict(file: string, bytes: Uint8Array): Verdict {
  try {
    const m = readModel(bytes);
    const h = createHash('sha256');
    for (const [name] of paramShapes(m.cfg)) {
      const t = m.tensors.get(name)!;
      h.update(new Uint8Array(t.buffer, t.byteOffset, t.byteLength));
    }
    return { file, ok: true, cfg: m.cfg, digest: h.digest('hex') };
  } catch (e) {
    if (e instanceof SafetensorsError) return { file, ok: false, error: e.message };
    return { file, ok: false, crash: String(e) };
  }
}

const { python, tried } = findPython();
const dir = mkdtempSync(join(tmpdir(), 'eorm-verdicts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('model files: the app and python/eorm/weights.py give the same verdicts', () => {
  it(`agree on each of ${FILES} seeded mutated files (accept with the same config and tensors, or refuse)`, () => {
    if (!python) throw new Error(`No Python with torch found (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const rng = createRng(20_261_124);
    const learned = makeConfig({ ...TINY, positional: 'learned' });
    const bases = [baseFile(TINY, []), baseFile(TINY, ['emb.weight', 'enc.layers.1.linear2.weight', 'head.3.bias']), baseFile(learned, ['pos.weight'])];
    const app: Verdict[] = [];
    const what = new Map<string, string>();
    for (let k = 0; k < FILES; k++) {
      const d = draft(pick(rng, bases));
      // One file in ten unmutated or only harmlessly changed: the reverse direction (both accept) counts too.
      const n = rng.int(10) === 0 ? 0 : 1 + rng.int(3);
      for (let i = 0; i < n; i++) MUTATIONS[rng.int(MUTATIONS.length)](rng, d);
      const file = `${String(k).padStart(4, '0')}.safetensors`;
      const bytes = build(d);
      writeFileSync(join(dir, file), bytes);
      app.push(appVerdict(file, bytes));
      what.set(file, d.what.join('; ') || 'unmutated');
    }
    expect(
      app.filter((v) => v.crash !== undefined),
      'the app threw something other than a SafetensorsError',
    ).toEqual([]);
    const py = JSON.parse(runPython(python, ['scripts/model_verdicts.py', dir], { OMP_NUM_THREADS: '1' })) as Verdict[];
    expect(py.map((v) => v.file)).toEqual(app.map((v) => v.file));

    const disagreements: string[] = [];
    app.forEach((a, i) => {
      const p = py[i];
      const same = a.ok === p.ok && p.crash === undefined && (!a.ok || (JSON.stringify(a.cfg) === JSON.stringify(p.cfg) && a.digest === p.digest));
      if (!same) {
        const say = (v: Verdict) =>
          v.ok ? `accepts ${JSON.stringify(v.cfg)} ${v.digest!.slice(0, 8)}` : v.crash ? `CRASHES ${v.crash}` : `refuses: ${v.error}`;
        disagreements.push(`${a.file} [${what.get(a.file)}]\n    app ${say(a).slice(0, 300)}\n    python ${say(p).slice(0, 300)}`);
      }
    });
    const accepted = app.filter((v) => v.ok).length;
    console.info(`model file verdicts: ${FILES} files, ${accepted} accepted and ${FILES - accepted} refused by the app; ${disagreements.length} disagreements`);
    expect(accepted, 'the mutations should leave some files valid').toBeGreaterThan(50);
    expect(FILES - accepted).toBeGreaterThan(500);
    expect(disagreements.length, `first disagreements:\n${disagreements.slice(0, 8).join('\n')}`).toBe(0);
  });
});
