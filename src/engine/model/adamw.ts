import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { type AdamWUpdate, composedAdamW, fusedAdamW } from '../kernels/adamw/adamw.ts';
import { FlatMoments, type RowGradient, flatMomentsFit, stepHyper } from '../kernels/adamw/webgpuFlat.ts';
import { type AdamWHyper, LazyEmbeddingAdam, type LazyEmbeddingState } from './lazyEmbedding.ts';
import type { Params } from './params.ts';

export type AdamWOptions = AdamWHyper;

export const ADAMW_DEFAULTS: AdamWOptions = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 };

export const EMBEDDING = 'emb.weight';

/** The optimizer's whole state (torch's `step`, `exp_avg`, `exp_avg_sq`), as plain arrays. */
export interface AdamWState {
  t: number;
  m: Map<string, Float32Array>;
  v: Map<string, Float32Array>;
  /** The lazy embedding's moments and bookkeeping; null when the embedding is updated densely. */
  lazy: LazyEmbeddingState | null;
}

/** How the optimizer updates the parameters (see chooseAdamW). */
export type AdamWVariant = 'flat' | 'lazyEmbedding' | 'perTensor';

export interface AdamWChoice {
  variant: AdamWVariant;
  /** The update of each parameter whose moments are tensors of their own ('lazyEmbedding', 'perTensor'). */
  update: AdamWUpdate;
}

/**
 * The one place the AdamW variant is chosen, from the backend profile (`lazyEmbedding`, when given,
 * overrides the profile's: a run resumes with the variant it started with). All compute torch's AdamW.
 *
 *   variant          where                           the embedding              the other parameters
 *   'flat'           WebGPU (moments fit a binding)  in place, from its rows    in place, moments in one buffer (kernels/adamw/webgpuFlat.ts)
 *   'lazyEmbedding'  cpu, wasm                       host arrays, its rows      per tensor: the host kernel (kernels/adamw/)
 *   'perTensor'      elsewhere (lazy embedding off,  per tensor                 per tensor: the kernel registered for the backend
 *                    WebGPU past the binding)                                   (kernels/adamw/, kernels/adamw/webgpu.ts), else the composition
 *
 * The lazy embedding pays off where the table lives in CPU memory (a step costs its tokens, not the
 * vocabulary); on a GPU one dense pass is cheap, and updating in place makes no new tensor per parameter.
 */
export function chooseAdamW(profile: BackendProfile, params: Params, lazyEmbedding = profile.lazyEmbedding): AdamWChoice {
  const update = profile.fused.adamw ? fusedAdamW : composedAdamW;
  if (lazyEmbedding && params.has(EMBEDDING)) return { variant: 'lazyEmbedding', update };
  const entries = [...params.values()].reduce((a, p) => a + p.size, 0);
  if (profile.flatAdamW && flatMomentsFit(entries)) return { variant: 'flat', update };
  return { variant: 'perTensor', update };
}

/**
 * AdamW exactly as torch 1.13 (amsgrad off): decoupled decay on every parameter (biases, norms and
 * the whole embedding too), then p -= lr/(1−β1^t) · m / (√v/√(1−β2^t) + eps), in the variant
 * chooseAdamW picks for `profile`.
 * With the lazy embedding, the embedding's state lives in LazyEmbeddingAdam (same weights, cost per
 * step proportional to the step's tokens) and the `emb.weight` variable is only refreshed by sync().
 */
export class AdamW {
  readonly m = new Map<string, tf.Variable>();
  readonly v = new Map<string, tf.Variable>();
  readonly variant: AdamWVariant;
  /** Set in the 'lazyEmbedding' variant. */
  readonly lazy: LazyEmbeddingAdam | null;
  /** Set in the 'flat' variant: every moment in one buffer, updated in place with the parameters (the maps stay empty). */
  readonly flat: FlatMoments | null;
  private readonly update: AdamWUpdate;
  /** Steps taken so far (torch's `step` state). */
  t = 0;

  /** `lazyEmbedding`: overrides the profile's choice (left out: the profile's). */
  constructor(
    params: Params,
    readonly opts: AdamWOptions = ADAMW_DEFAULTS,
    lazyEmbedding: boolean | undefined,
    readonly profile: BackendProfile,
  ) {
    const choice = chooseAdamW(profile, params, lazyEmbedding);
    this.variant = choice.variant;
    this.update = choice.update;
    const emb = params.get(EMBEDDING);
    this.lazy =
      this.variant === 'lazyEmbedding' && emb ? new LazyEmbeddingAdam(emb.dataSync().slice() as Float32Array, emb.shape[0]!, emb.shape[1]!, opts) : null;
    this.flat = this.variant === 'flat' ? new FlatMoments([...params].map(([name, p]) => [name, p.shape])) : null;
    for (const [name, p] of params) {
      if (this.flat || (this.lazy && name === EMBEDDING)) continue;
      // Inside tidy so the zero tensors the variables are made from do not linger.
      this.m.set(
        name,
        tf.tidy(() => tf.variable(tf.zerosLike(p), false)),
      );
      this.v.set(
        name,
        tf.tidy(() => tf.variable(tf.zerosLike(p), false)),
      );
    }
  }

  /**
   * One update of the parameters held on the device; each gradient is multiplied by `gradScale`
   * first (the clip coefficient). With the lazy embedding, its rows are updated by stepEmbedding.
   * Where `apply` (a boolean scalar; true when left out) is false, every parameter and moment keeps its
   * value: a step with a non-finite gradient is skipped on the device without reading anything back
   * (the update kernel takes the flag, so skipping costs no extra pass).
   * `embeddingRows`: the embedding's gradient in `grads` holds only these ascending rows (a step's
   * compact table); every other row's gradient is 0 and the update is still full AdamW over every row.
   */
  step(params: Params, grads: ReadonlyMap<string, tf.Tensor>, lr: number, gradScale: tf.Scalar, apply?: tf.Scalar, embeddingRows?: tf.Tensor1D): void {
    this.t += 1;
    const s = { ...this.opts, lr, t: this.t };
    tf.tidy(() => {
      const applied = apply ?? tf.scalar(true);
      const rowGrad: RowGradient | null = embeddingRows ? { rows: embeddingRows, grad: grads.get(EMBEDDING) as tf.Tensor2D } : null;
      if (this.flat) return this.flat.step(params, grads, gradScale, applied, s, rowGrad ? new Map([[EMBEDDING, rowGrad]]) : undefined);
      for (const [name, m] of this.m) {
        let g = grads.get(name);
        // The composition takes the rows' gradient as the dense one it stands for.
        if (rowGrad && name === EMBEDDING) g = tf.scatterND(tf.reshape(rowGrad.rows, [-1, 1]), rowGrad.grad, m.shape);
        if (!g) throw new Error(`no gradient for parameter "${name}"`);
        const p = params.get(name)!;
        const v = this.v.get(name)!;
        const [pNew, mNew, vNew] = this.update(p, m, v, g, gradScale, applied, s);
        p.assign(pNew);
        m.assign(mNew);
        v.assign(vNew);
      }
    });
  }

  /**
   * The flat variant's step in two parts, for a step whose GPU work must not hold values of its own
   * (train/step/webgpuStep.ts, replayed): `beginStep` counts the step and gives its hyper-parameters (to be
   * uploaded as an input), `stepFlat` records the update with them on the device.
   */
  beginStep(lr: number): Float32Array {
    if (!this.flat) throw new Error('beginStep needs the flat variant');
    this.t += 1;
    return stepHyper({ ...this.opts, lr, t: this.t });
  }

  stepFlat(
    params: Params,
    grads: ReadonlyMap<string, tf.Tensor>,
    hyper: tf.Tensor1D,
    gradScale: tf.Scalar,
    apply: tf.Scalar,
    embeddingRows?: tf.Tensor1D,
  ): void {
    const rowGrad = embeddingRows ? new Map([[EMBEDDING, { rows: embeddingRows, grad: grads.get(EMBEDDING) as tf.Tensor2D }]]) : undefined;
    // lr and t reach the device through `hyper` only; the kernel's uniforms are the same every step.
    this.flat!.step(params, grads, gradScale, apply, { ...this.opts, lr: 0, t: this.t }, rowGrad, hyper);
  }

  /** The lazy embedding's part of the same step: `rows` got `grads` ([rows × d]), scaled by `scale`. */
  stepEmbedding(rows: ArrayLike<number>, grads: Float32Array, scale: number, lr: number): void {
    if (!this.lazy) throw new Error('stepEmbedding needs the lazy embedding');
    this.lazy.step(rows, grads, scale, lr);
    if (this.lazy.t !== this.t) throw new Error(`embedding step ${this.lazy.t} out of line with step ${this.t}`);
  }

  /** Writes the lazy embedding, brought up to the last step, into the `emb.weight` variable (a no-op without it). */
  sync(params: Params): void {
    if (!this.lazy) return;
    const emb = params.get(EMBEDDING)!;
    // A copy: the CPU backend keeps the array it is given, and the lazy table goes on changing.
    const table = this.lazy.flush().slice();
    tf.tidy(() => emb.assign(tf.tensor2d(table, [this.lazy!.rows, this.lazy!.width])));
  }

  /**
   * The tensors that hold the state now, and how to make the state of their values once read back
   * (with readTogether, which copies them when called: a checkpoint reads them with the weights, in
   * one map on WebGPU). The step count and the lazy embedding's state (CPU arrays) are taken when called.
   */
  stateTensors(): { tensors: tf.Tensor[]; finish(values: Float32Array[]): AdamWState } {
    const t = this.t;
    if (this.flat) {
      const flat = this.flat;
      return { tensors: [flat.buffer], finish: ([values]) => ({ t, ...flat.split(values), lazy: null }) };
    }
    const names = [...this.m.keys()];
    const lazy = this.lazy ? this.lazy.exportState() : null;
    return {
      tensors: names.flatMap((n) => [this.m.get(n)!, this.v.get(n)!]),
      finish: (values) => ({
        t,
        m: new Map(names.map((n, i) => [n, values[2 * i]])),
        v: new Map(names.map((n, i) => [n, values[2 * i + 1]])),
        lazy,
      }),
    };
  }

  /** Takes up a state made by stateTensors() for the same parameters (which must hold the weights saved with it). */
  restore(state: AdamWState): void {
    if ((state.lazy === null) !== (this.lazy === null)) throw new Error('optimizer state: lazy embedding on one side only');
    this.flat?.write(state.m, state.v);
    for (const [name, m] of this.m) {
      const mv = state.m.get(name);
      const vv = state.v.get(name);
      if (!mv || !vv || mv.length !== m.size || vv.length !== m.size) throw new Error(`optimizer state for "${name}" is missing or mis-sized`);
      tf.tidy(() => {
        m.assign(tf.tensor(mv, m.shape));
        this.v.get(name)!.assign(tf.tensor(vv, m.shape));
      });
    }
    if (this.lazy && state.lazy) this.lazy.restore(state.lazy);
    this.t = state.t;
  }

  dispose(): void {
    for (const t of [...this.m.values(), ...this.v.values()]) t.dispose();
    this.flat?.dispose();
    this.m.clear();
    this.v.clear();
  }
}
