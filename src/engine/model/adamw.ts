import * as tf from '@tensorflow/tfjs';
import type { Params } from './params.ts';

export interface AdamWOptions {
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
}

export const ADAMW_DEFAULTS: AdamWOptions = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 };

/**
 * AdamW exactly as torch 1.13 (amsgrad off): decoupled decay on every parameter (biases, norms and
 * the whole embedding too), then p -= lr/(1−β1^t) · m / (√v/√(1−β2^t) + eps).
 * Rows of the embedding that got no gradient still decay and still move by their Adam momentum.
 */
export class AdamW {
  readonly m = new Map<string, tf.Variable>();
  readonly v = new Map<string, tf.Variable>();
  /** Steps taken so far (torch's `step` state). */
  t = 0;

  constructor(
    params: Params,
    readonly opts: AdamWOptions = ADAMW_DEFAULTS,
  ) {
    for (const [name, p] of params) {
      // Inside tidy so the zero tensors the variables are made from do not linger.
      this.m.set(name, tf.tidy(() => tf.variable(tf.zerosLike(p), false)));
      this.v.set(name, tf.tidy(() => tf.variable(tf.zerosLike(p), false)));
    }
  }

  /** One update; each gradient is multiplied by `gradScale` first (the clip coefficient). */
  step(params: Params, grads: ReadonlyMap<string, tf.Tensor>, lr: number, gradScale: tf.Scalar): void {
    this.t += 1;
    const { beta1, beta2, eps, weightDecay } = this.opts;
    const stepSize = lr / (1 - beta1 ** this.t);
    const sqrtBias2 = Math.sqrt(1 - beta2 ** this.t);
    tf.tidy(() => {
      for (const [name, p] of params) {
        const g0 = grads.get(name);
        if (!g0) throw new Error(`no gradient for parameter "${name}"`);
        const g = tf.mul(g0, gradScale);
        const m = this.m.get(name)!;
        const v = this.v.get(name)!;
        const mNew = tf.add(tf.mul(m, beta1), tf.mul(g, 1 - beta1));
        const vNew = tf.add(tf.mul(v, beta2), tf.mul(tf.square(g), 1 - beta2));
        const denom = tf.add(tf.div(tf.sqrt(vNew), sqrtBias2), eps);
        const decayed = tf.mul(p, 1 - lr * weightDecay);
        p.assign(tf.sub(decayed, tf.mul(tf.div(mNew, denom), stepSize)));
        m.assign(mNew);
        v.assign(vNew);
      }
    });
  }

  dispose(): void {
    for (const t of [...this.m.values(), ...this.v.values()]) t.dispose();
    this.m.clear();
    this.v.clear();
  }
}
