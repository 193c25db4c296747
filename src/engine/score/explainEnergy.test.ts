/**
 * "Why this energy?" by deletion on real answers (the first question of the 16-answer GSM8K set,
 * bench/data: a prefix of /work/shared/data/gsm8k_zeroeval_multimodel_16cand.jsonl) and small random models:
 * each delta is the energy of the reduced text scored on its own, minus the candidate's; the token
 * effects agree with python/scripts/saliency_reference.py (this package's tokenizer and torch in float64).
 * Needs a Python with torch for the reference; without one that test fails and says how to get it.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tokenPieces } from '../data/tokenize/tokenPieces.ts';
import { tokenizeChunk } from '../data/tokenize/tokenize.ts';
import { writeModel } from '../io/modelFile.ts';
import { type ModelConfig, makeConfig } from '../model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../data/tokenize/gpt2.ts';
import { type ParamArrays, type Params, disposeParams, initParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { INSTALL_TORCH, findPython, runPython } from '../testing/pythonNode.ts';
import { type CandidateSaliency, type ExplainOptions, MAX_STEPS, MAX_TOKENS, explainCandidate } from './explainEnergy.ts';
import { scoreCandidates } from './scoring.ts';
import { activeProfile } from '../backend/profile.ts';

/** Every input the scoring path is handed, as ids (the real scoring runs on them). */
const { seen } = vi.hoisted(() => ({ seen: [] as number[][] }));
vi.mock('./scoring.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./scoring.ts')>();
  return {
    ...actual,
    scoreCandidates: (...args: Parameters<typeof actual.scoreCandidates>) => {
      seen.push(...args[2].map((ids) => Array.from(ids)));
      return actual.scoreCandidates(...args);
    },
  };
});

const rows = readFileSync('bench/data/zeroeval-gsm8k-16cand-first200.jsonl', 'utf8')
  .split('\n')
  .slice(0, 16)
  .map((l) => JSON.parse(l) as { question: string; gen_text: string });
const question = rows[0].question;
/** Four answers: a paragraph and an answer line, numbered lines, and two short ones (at most MAX_TOKENS tokens). */
const texts = [0, 1, 3, 5].map((i) => rows[i].gen_text);

/** A random model whose biases and norms are moved off 0 and 1, so that each of them shapes the energy. */
async function randomModel(nLayers: number, maxLen: number): Promise<{ cfg: ModelConfig; arrays: ParamArrays; params: Params }> {
  const cfg = makeConfig({
    vocabSize: GPT2_VOCAB,
    dModel: 16,
    nHeads: 2,
    nLayers,
    ffnDim: 32,
    dropout: 0,
    maxLen,
    clsId: GPT2_EOT,
    sepId: GPT2_EOT,
    padId: GPT2_EOT,
  });
  const init = initParams(cfg, 3);
  const arrays = await paramsToArrays(init, activeProfile());
  disposeParams(init);
  let k = 0;
  for (const a of arrays.values()) for (let i = 0; i < a.length; i++) a[i] += 0.05 * Math.sin(++k * 0.7);
  return { cfg, arrays, params: paramsFromArrays(cfg, arrays) };
}

/** The energies of texts scored through the plain scoring API, one call each: no batch shared with the explanation. */
async function energyAlone(cfg: ModelConfig, params: Params, text: string): Promise<number> {
  const chunk = tokenizeChunk({ maxLen: cfg.maxLen, clsId: cfg.clsId, sepId: cfg.sepId, questions: [question], groupSizes: [1], genTexts: [text] });
  return (await scoreCandidates(cfg, params, [chunk.tokens], { profile: activeProfile() }))[0];
}

const without = (text: string, r: { start: number; end: number }) => text.slice(0, r.start) + text.slice(r.end);

/** Spearman's rank correlation, ties at their mean rank. */
function spearman(a: number[], b: number[]): number {
  const ranks = (v: number[]) => {
    const order = v.map((_, i) => i).sort((i, j) => v[i] - v[j]);
    const r = new Array<number>(v.length);
    for (let s = 0; s < order.length;) {
      let e = s;
      while (e + 1 < order.length && v[order[e + 1]] === v[order[s]]) e++;
      for (let k = s; k <= e; k++) r[order[k]] = (s + e) / 2;
      s = e + 1;
    }
    return r;
  };
  const [ra, rb] = [ranks(a), ranks(b)];
  const mean = (a.length - 1) / 2;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i++) {
    num += (ra[i] - mean) * (rb[i] - mean);
    da += (ra[i] - mean) ** 2;
    db += (rb[i] - mean) ** 2;
  }
  return num / Math.sqrt(da * db);
}

/** Float32 energies of the same ids in different batches (other padding) and float64 against float32. */
const TOL = 1e-5;

// WASM: the scoring path the app runs on CPUs, and 10× tfjs-cpu's speed on these many variants.
beforeAll(async () => {
  expect(await tf.setBackend('wasm')).toBe(true);
});

describe('explainCandidate on real answers (2-layer random model, maxLen 512)', () => {
  let model: Awaited<ReturnType<typeof randomModel>>;
  const explained: CandidateSaliency[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'eorm-explain-'));
  beforeAll(async () => {
    model = await randomModel(2, 512);
    for (const text of texts) explained.push(await explainCandidate(model.cfg, model.params, question, text, { profile: activeProfile() }));
  }, 120_000);
  afterAll(() => {
    disposeParams(model.params);
    rmSync(dir, { recursive: true, force: true });
  });

  it("every step's and token's delta is the energy of the text without it, scored on its own, minus the candidate's", async () => {
    let worst = 0;
    for (const [i, text] of texts.entries()) {
      const out = explained[i];
      const energy = await energyAlone(model.cfg, model.params, text);
      expect(Math.abs(out.energy - energy)).toBeLessThanOrEqual(TOL);
      expect(out.truncated).toBe(false);
      // The steps cover the text exactly, each piece's text its characters.
      expect(out.steps.map((s) => s.text).join('')).toBe(text);
      expect(out.steps.length).toBeGreaterThan(1);
      for (const piece of [...out.steps, ...out.tokens]) {
        expect(piece.text).toBe(text.slice(piece.start, piece.end));
        const delta = (await energyAlone(model.cfg, model.params, without(text, piece))) - energy;
        expect(Math.abs(piece.delta - delta), `${JSON.stringify(piece.text)} of answer ${i}`).toBeLessThanOrEqual(TOL);
        worst = Math.max(worst, Math.abs(piece.delta - delta));
      }
    }
    console.log(`steps and tokens of ${texts.length} answers: max |delta − re-scored delta| = ${worst.toExponential(2)}`);
  }, 120_000);

  it('names the step whose removal lowers the energy most, and takes the tokens of long answers from it', () => {
    for (const [i, out] of explained.entries()) {
      const lowest = Math.min(...out.steps.map((s) => s.delta));
      if (lowest < 0) expect(out.steps[out.distrusted!].delta).toBe(lowest);
      else expect(out.distrusted).toBeNull();
      const answerTokens =
        tokenizeChunk({ maxLen: 512, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [''], groupSizes: [1], genTexts: [texts[i]] }).tokens.length - 2;
      if (answerTokens > MAX_TOKENS) {
        const focus = out.steps[out.focus.step!];
        expect(focus.delta).toBe(lowest);
        expect(out.tokens.length).toBeGreaterThan(0);
        for (const t of out.tokens) expect(t.end > focus.start && t.start < focus.end).toBe(true);
      } else {
        expect(out.focus).toEqual({ start: 0, end: texts[i].length, step: null });
        expect(out.tokens.map((t) => t.text).join('')).toBe(texts[i]);
      }
      for (const grain of [out.steps, out.tokens]) {
        const scale = Math.max(...grain.map((p) => Math.abs(p.delta)));
        for (const p of grain) expect(p.shade).toBeCloseTo(-p.delta / scale, 12);
      }
    }
    // The sample holds both: long answers and short ones.
    expect(new Set(explained.map((o) => o.focus.step === null))).toEqual(new Set([true, false]));
  });

  it("the token effects rank as an independent reference's deletion effects (this package's tokenizer, torch, float64)", () => {
    const { python, tried } = findPython();
    if (!python) throw new Error(`No Python with torch found (${tried.join('; ')}). ${INSTALL_TORCH}`);
    const weights = join(dir, 'random.safetensors');
    writeFileSync(weights, writeModel({ cfg: model.cfg, tensors: model.arrays, metadata: { tokenizer: 'r50k_base' } }));
    const request = join(dir, 'request.json');
    const items = texts.map((text, i) => ({ question, text, pieces: [...explained[i].steps, ...explained[i].tokens].map((p) => [p.start, p.end]) }));
    writeFileSync(request, JSON.stringify({ weights, config: null, items }));
    const ref = JSON.parse(runPython(python, ['scripts/saliency_reference.py', request], { OMP_NUM_THREADS: '1' })) as {
      energies: number[];
      deltas: number[][];
    };
    for (const [i, out] of explained.entries()) {
      expect(Math.abs(out.energy - ref.energies[i])).toBeLessThanOrEqual(TOL);
      const app = [...out.steps, ...out.tokens].map((p) => p.delta);
      app.forEach((d, k) => expect(Math.abs(d - ref.deltas[i][k])).toBeLessThanOrEqual(TOL));
      const tokens = ref.deltas[i].slice(out.steps.length);
      const rho = spearman(
        out.tokens.map((t) => t.delta),
        tokens,
      );
      console.log(`answer ${i}: ${out.tokens.length} tokens, rank correlation with the reference's deletion effects ${rho.toFixed(4)}`);
      expect(rho).toBeGreaterThanOrEqual(0.8);
    }
  }, 120_000);
});

/** explainCandidate on a fresh random model, its weights freed after. */
async function explainOn(nLayers: number, maxLen: number, text: string, opts?: Omit<ExplainOptions, 'profile'>): Promise<CandidateSaliency> {
  const { cfg, params } = await randomModel(nLayers, maxLen);
  try {
    return await explainCandidate(cfg, params, question, text, { ...opts, profile: activeProfile() });
  } finally {
    disposeParams(params);
  }
}

describe('explainCandidate: bounds, progress', () => {
  it('a one-layer model: the deletions move the energy (gradient × input gave every token 0 here, max |score| 1.4e-9)', async () => {
    const out = await explainOn(1, 256, texts[0]);
    // Far above the energy's float32 rounding (a few 1e-8), where gradient × input was at most 1.4e-9.
    const moved = (grain: { delta: number }[]) => grain.filter((p) => Math.abs(p.delta) > 1e-6).length / grain.length;
    expect(moved(out.steps)).toBe(1);
    expect(moved(out.tokens)).toBeGreaterThanOrEqual(0.9);
    expect(Math.max(...out.tokens.map((t) => Math.abs(t.delta)))).toBeGreaterThan(1e-4);
  }, 60_000);

  it('cut at maxLen: says so, and explains only what the model reads', async () => {
    const text = texts[1];
    const out = await explainOn(2, 96, text);
    expect(out.truncated).toBe(true);
    expect(out.tokensRead).toBe(96);
    const read = out.tokens.length > 0 ? Math.max(...out.tokens.map((t) => t.end)) : 0;
    expect(read).toBeLessThan(text.length);
    expect(out.answerCharsRead).toBe(read);
    expect(out.steps.every((s) => s.start < read)).toBe(true);
    expect(out.steps.length).toBeLessThan(text.split('\n').filter((l) => l.trim()).length);
  }, 60_000);

  it('cut at maxLen: every reduced text is the text the model read less one piece, never text it did not read', async () => {
    const text = texts[1];
    const { cfg, params } = await randomModel(2, 96);
    try {
      seen.length = 0;
      const out = await explainCandidate(cfg, params, question, text, { profile: activeProfile() });
      const inputs = seen.slice();
      expect(out.truncated).toBe(true);
      const readText = text.slice(0, out.answerCharsRead);
      const questionTokens =
        tokenizeChunk({ maxLen: 4096, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [question], groupSizes: [1], genTexts: [''] }).tokens.length - 2;
      const answerOf = (ids: ArrayLike<number>) =>
        tokenPieces(ids, questionTokens)
          .filter((p) => p.part === 'answer')
          .map((p) => p.text)
          .join('');
      const candidate = tokenizeChunk({ maxLen: 96, clsId: GPT2_EOT, sepId: GPT2_EOT, questions: [question], groupSizes: [1], genTexts: [text] }).tokens;
      const pieces = [...out.steps, ...out.tokens];
      // The candidate as cut, then each piece deleted from what was read (deleted from the whole text, the
      // window would refill with the text after the cut).
      expect(inputs.map(answerOf).sort()).toEqual([answerOf(candidate), ...pieces.map((p) => without(readText, p))].sort());
      for (const piece of pieces) {
        expect(piece.end).toBeLessThanOrEqual(out.answerCharsRead);
        const delta = (await energyAlone(cfg, params, without(readText, piece))) - out.energy;
        expect(Math.abs(piece.delta - delta), JSON.stringify(piece.text)).toBeLessThanOrEqual(TOL);
      }
    } finally {
      disposeParams(params);
    }
  }, 60_000);

  it('caps the steps and the tokens it scores, says so, and reports progress up to the variants it scored', async () => {
    // More lines than MAX_STEPS, more than MAX_TOKENS tokens in all.
    const text = Array.from({ length: MAX_STEPS + 5 }, (_, k) => `${k + 3} - 2 = ${k + 1}`).join('\n');
    const progress: Array<[number, number]> = [];
    const out = await explainOn(2, 512, text, { onProgress: (done, total) => progress.push([done, total]) });
    expect(out.truncated).toBe(false);
    expect(out.steps).toHaveLength(MAX_STEPS);
    expect(out.capped[0]).toBe(`Only the first ${MAX_STEPS} of the ${MAX_STEPS + 5} steps read were scored.`);
    expect(out.tokens.length).toBeLessThanOrEqual(MAX_TOKENS);
    expect(out.variants).toBe(out.steps.length + out.tokens.length);
    expect(progress.at(-1)).toEqual([out.variants + 1, out.variants + 1]);
    for (let k = 1; k < progress.length; k++) expect(progress[k][0]).toBeGreaterThan(progress[k - 1][0]);

    // One long step (no line or sentence ends): its first MAX_TOKENS tokens.
    const run = rows[0].gen_text.replace(/[.!?\n]/g, ' ');
    const one = await explainOn(2, 512, run);
    expect(one.steps).toHaveLength(1);
    expect(one.focus).toEqual({ start: 0, end: run.length, step: 0 });
    expect(one.tokens).toHaveLength(MAX_TOKENS);
    expect(one.capped).toEqual([expect.stringMatching(new RegExp(`^Only the first ${MAX_TOKENS} of the step's \\d+ tokens were scored\\.$`))]);
  }, 120_000);

  it('a blank answer, or one the question leaves no room for, has no steps and nothing to score but itself', async () => {
    const blank = await explainOn(1, 128, '');
    expect(blank).toMatchObject({ steps: [], tokens: [], distrusted: null, variants: 0, capped: [], truncated: false, answerCharsRead: 0 });
    expect(Number.isFinite(blank.energy)).toBe(true);
    // The question alone is longer than 32 tokens.
    const unread = await explainOn(1, 32, texts[0]);
    expect(unread).toMatchObject({ steps: [], tokens: [], distrusted: null, variants: 0, truncated: true, tokensRead: 32, answerCharsRead: 0 });
  });
});
