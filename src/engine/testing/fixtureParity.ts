import * as tf from '@tensorflow/tfjs';
import { AdamW } from '../model/adamw.ts';
import { type ModelConfig, configFromReference } from '../model/config.ts';
import { type ParamArrays, disposeParams, paramsFromArrays, paramsToArrays } from '../model/params.ts';
import { energies } from '../model/transebm.ts';
import { padBatch } from '../model/batch.ts';
import { type StepBatch, lossAndGradients } from '../train/step/gradients.ts';
import { evaluateGroups } from '../metrics/summary.ts';
import { lossFreeRange } from '../train/step/lossFreeGradients.ts';
import { trainStep } from '../train/step/step.ts';
import { maxAbsDiff } from './allclose.ts';
import { activeProfile } from '../backend/profile.ts';

/**
 * Parity of the TF.js TransEBM with the PyTorch fixtures, as one DOM-free routine: Node tests run it on
 * the CPU backend, the browser test runs it in a worker on WebGPU. It measures, it does not assert:
 * each check is a largest error the caller compares with its backend's tolerance.
 */
export interface ArrayWithShape {
  shape: number[];
  data: Float32Array;
}

export interface ParityFixture {
  referenceConfig: Record<string, unknown>;
  // The generator's case.json, read loosely: its shape is documented in the fixture README.
  caseJson: FixtureCase;
  weights: ParamArrays;
  expected: Map<string, ArrayWithShape>;
}

export interface FixtureCase {
  groups: Array<{ ids: number[][]; lengths: number[]; labels: number[]; energies: number[]; loss: number }>;
  mean_loss: number;
  grad_norm_before_clip: number;
  clip_coef: number;
  optimizer: { lr: number; betas: [number, number]; eps: number; weight_decay: number; max_grad_norm: number };
  emb_rows: number[];
  step2: { mean_loss: number; grad_norm_before_clip: number; energies: number[][] };
  clip_variant: { max_grad_norm: number; step1: { clip_coef: number }; step2: { clip_coef: number } };
}

export type CheckKind = 'energy' | 'loss' | 'gradNormRel' | 'grad' | 'inter' | 'param' | 'zeroGradParam' | 'decayRel' | 'clipCoef' | 'microBatch';

export interface Check {
  name: string;
  kind: CheckKind;
  /** Largest absolute (or, for *Rel kinds, relative) error. */
  error: number;
}

export interface ParityOptions {
  /** Micro-batch sizes whose gradients are compared with the one-pass step. */
  microBatches?: number[];
  /** Skip the optimizer steps (energies, loss and gradients only). */
  gradientsOnly?: boolean;
}

export async function runParity(fx: ParityFixture, opts: ParityOptions = {}): Promise<Check[]> {
  const cfg = configFromReference(fx.referenceConfig);
  const checks: Check[] = [];
  const add = (name: string, kind: CheckKind, error: number) => checks.push({ name, kind, error });
  const batch = fixtureBatch(fx.caseJson);
  const params = paramsFromArrays(cfg, fx.weights);
  try {
    await checkForward(cfg, fx, params, add);
    const { loss, grads } = lossAndGradients(cfg, params, batch, { profile: activeProfile() });
    add('mean_loss', 'loss', Math.abs((await loss.data())[0] - fx.caseJson.mean_loss));
    const gradArrays = new Map<string, Float32Array>();
    for (const [name, g] of grads) gradArrays.set(name, (await g.data()) as Float32Array);
    tf.dispose([loss, ...grads.values()]);
    checkGradients(cfg, fx, gradArrays, add);
    for (const mb of opts.microBatches ?? []) {
      const r = lossAndGradients(cfg, params, batch, { microBatch: mb, profile: activeProfile() });
      let worst = Math.abs((await r.loss.data())[0] - fx.caseJson.mean_loss);
      for (const [name, g] of r.grads) worst = Math.max(worst, maxAbsDiff((await g.data()) as Float32Array, gradArrays.get(name)!).max);
      tf.dispose([r.loss, ...r.grads.values()]);
      add(`microBatch ${mb} vs one pass (loss and every gradient)`, 'microBatch', worst);
    }
  } finally {
    disposeParams(params);
  }
  if (!opts.gradientsOnly) {
    await checkSteps(cfg, fx, batch, fx.caseJson.optimizer.max_grad_norm, '', add);
    await checkSteps(cfg, fx, batch, fx.caseJson.clip_variant.max_grad_norm, 'clip.', add);
  }
  return checks;
}

/** Both fixture groups as one step: candidates trimmed to their true lengths. */
export function fixtureBatch(c: FixtureCase): StepBatch {
  const candidates: number[][] = [];
  const labels: number[] = [];
  const groupOf: number[] = [];
  c.groups.forEach((g, gi) => {
    g.ids.forEach((row, i) => {
      candidates.push(row.slice(0, g.lengths[i]));
      labels.push(g.labels[i]);
      groupOf.push(gi);
    });
  });
  return { candidates, labels, groupOf };
}

type Add = (name: string, kind: CheckKind, error: number) => void;

async function checkForward(cfg: ModelConfig, fx: ParityFixture, params: Map<string, tf.Tensor>, add: Add): Promise<void> {
  for (const [gi, g] of fx.caseJson.groups.entries()) {
    const inter = new Map<string, tf.Tensor>();
    const inputs = padBatch(
      g.ids.map((row, i) => row.slice(0, g.lengths[i])),
      cfg.padId,
    );
    const e = energies(cfg, params, inputs, { inspect: (name, t) => inter.set(name, tf.keep(t.clone())), profile: activeProfile() });
    const got = (await e.data()) as Float32Array;
    add(`energies g${gi}`, 'energy', maxAbsDiff(got, g.energies).max);
    // The app's own metric computes the group's BT loss from the energies.
    const { btLoss } = evaluateGroups([{ energies: got, labels: g.labels, answers: g.labels.map(() => null) }]);
    add(`loss g${gi}`, 'loss', Math.abs(btLoss - g.loss));
    for (const [name, t] of inter) {
      const want = fx.expected.get(`inter.g${gi}.${name}`);
      if (!want) continue;
      const data = (await t.data()) as Float32Array;
      add(
        `inter.g${gi}.${name}`,
        'inter',
        name.startsWith('layer') || name === 'x0' ? validPositionsError(data, want, g.lengths) : maxAbsDiff(data, want.data).max,
      );
    }
    tf.dispose([e, inputs.ids, inputs.lengths, ...inter.values()]);
  }
}

/** Positions t ≥ length are don't-care in the fixture. */
function validPositionsError(got: Float32Array, want: ArrayWithShape, lengths: number[]): number {
  const [n, T, d] = want.shape;
  let worst = 0;
  for (let b = 0; b < n; b++) {
    for (let t = 0; t < lengths[b]; t++) {
      const o = (b * T + t) * d;
      worst = Math.max(worst, maxAbsDiff(got.subarray(o, o + d), want.data.subarray(o, o + d)).max);
    }
  }
  return worst;
}

function checkGradients(cfg: ModelConfig, fx: ParityFixture, grads: Map<string, Float32Array>, add: Add): void {
  let sq = 0;
  for (const g of grads.values()) for (const v of g) sq += v * v;
  add('grad norm', 'gradNormRel', Math.abs(Math.sqrt(sq) - fx.caseJson.grad_norm_before_clip) / fx.caseJson.grad_norm_before_clip);
  for (const [name, g] of grads) {
    const want = fx.expected.get(`grad.${name}`);
    if (!want) throw new Error(`fixture lacks grad.${name}`);
    const got = name === 'emb.weight' ? gatherRows(g, fx.caseJson.emb_rows, cfg.dModel) : g;
    add(`grad.${name}`, 'grad', maxAbsDiff(got, want.data).max);
    if (name === 'emb.weight')
      add(
        'grad.emb.weight (rows not in the inputs are 0)',
        'grad',
        maxOutsideRows(g, fx.caseJson.emb_rows, cfg.dModel, () => 0),
      );
  }
}

async function checkSteps(cfg: ModelConfig, fx: ParityFixture, batch: StepBatch, maxGradNorm: number, prefix: string, add: Add): Promise<void> {
  const o = fx.caseJson.optimizer;
  const params = paramsFromArrays(cfg, fx.weights);
  const optimizer = new AdamW(params, { beta1: o.betas[0], beta2: o.betas[1], eps: o.eps, weightDecay: o.weight_decay }, undefined, activeProfile());
  try {
    for (const step of [1, 2]) {
      const s = await trainStep(cfg, params, optimizer, batch, { lr: o.lr, maxGradNorm });
      optimizer.sync(params);
      const coef = (await s.clipCoef.data())[0];
      const norm = (await s.gradNorm.data())[0];
      tf.dispose([s.loss, s.gradNorm, s.clipCoef]);
      if (step === 1)
        add(
          `${prefix}step1 gradient norm on the device`,
          'gradNormRel',
          Math.abs(norm - fx.caseJson.grad_norm_before_clip) / fx.caseJson.grad_norm_before_clip,
        );
      if (prefix)
        add(`${prefix}step${step} clip coefficient`, 'clipCoef', Math.abs(coef - fx.caseJson.clip_variant[`step${step}` as 'step1' | 'step2'].clip_coef));
      const after = await paramsToArrays(params, activeProfile());
      const decay = (1 - o.lr * o.weight_decay) ** step;
      for (const [name, got] of after) {
        const want = fx.expected.get(`${prefix}step${step}.${name}`);
        if (!want) throw new Error(`fixture lacks ${prefix}step${step}.${name}`);
        const label = `${prefix}step${step}.${name}`;
        if (name === 'emb.weight') {
          add(label, 'param', maxAbsDiff(gatherRows(got, fx.caseJson.emb_rows, cfg.dModel), want.data).max);
          const w0 = fx.weights.get(name)!;
          add(
            `${label} untouched rows = w0·(1−lr·wd)^${step}`,
            'decayRel',
            maxOutsideRows(got, fx.caseJson.emb_rows, cfg.dModel, (i) => w0[i] * decay, true),
          );
          continue;
        }
        const zero = zeroGradEntries(name, cfg.dModel);
        add(
          label,
          'param',
          maskedMaxAbs(got, want.data, (i) => !zero?.(i)),
        );
        if (zero) add(`${label} (zero-gradient entries)`, 'zeroGradParam', maskedMaxAbs(got, want.data, zero));
      }
    }
  } finally {
    optimizer.dispose();
    disposeParams(params);
  }
}

/** Entries whose true gradient is exactly 0 (lossFreeGradients.ts): the attention key bias and head.3.bias. */
function zeroGradEntries(name: string, d: number): ((i: number) => boolean) | null {
  const range = lossFreeRange(name, d);
  return range ? (i) => i >= range[0] && i < range[1] : null;
}

function maskedMaxAbs(a: Float32Array, b: Float32Array, keep: (i: number) => boolean): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) if (keep(i)) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

function gatherRows(m: Float32Array, rows: number[], d: number): Float32Array {
  const out = new Float32Array(rows.length * d);
  rows.forEach((r, k) => out.set(m.subarray(r * d, (r + 1) * d), k * d));
  return out;
}

/** Largest error outside `rows` against want(i); relative when asked. */
function maxOutsideRows(m: Float32Array, rows: number[], d: number, want: (i: number) => number, relative = false): number {
  const inRows = new Set(rows);
  let worst = 0;
  for (let r = 0; r < m.length / d; r++) {
    if (inRows.has(r)) continue;
    for (let i = r * d; i < (r + 1) * d; i++) {
      const w = want(i);
      const err = Math.abs(m[i] - w) / (relative ? Math.max(Math.abs(w), 1e-30) : 1);
      if (!(err <= worst)) worst = err;
    }
  }
  return worst;
}
