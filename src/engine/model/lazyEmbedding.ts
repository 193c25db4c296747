import { adamwArrays } from '../kernels/adamw/host.ts';
import { type AdamWStep, adamwScalars } from '../kernels/adamw/adamw.ts';

export type AdamWHyper = Omit<AdamWStep, 'lr' | 't'>;

/** Everything but the table itself (that is the `emb.weight` parameter), every row current at step t. */
export interface LazyEmbeddingState {
  t: number;
  /**
   * The moments of the touched rows only, in row order: the others are 0 (a run touches a small part
   * of the vocabulary, so a checkpoint shrinks by ~2 × vocabulary × d floats). States saved before
   * this hold every row, and are taken up too.
   */
  m: Float32Array;
  v: Float32Array;
  touched: Uint8Array;
  /** Kept whole: later catch-ups divide these running products, so rebuilding them would change the rounding. */
  lrs: Float64Array;
  decayProduct: Float64Array;
}

/**
 * AdamW for the token embedding that costs what a step's tokens cost, not what the vocabulary costs,
 * and gives the same weights as the full-vocabulary update.
 *
 * A row whose token is absent from a step has gradient 0 there. Full AdamW still updates it:
 * m ← β1·m, v ← β2·v, p ← p·(1 − lr_k·wd) − lr_k/(1−β1^k) · m/(√v/√(1−β2^k) + eps).
 * Here each row remembers the step it is current at; before a row is used (and before anyone reads
 * the table) the skipped steps are replayed for it, with the learning rate each of them had:
 * - a row never touched has m = v = 0, so only the decay products remain: p·Π(1 − lr_k·wd), taken
 *   from running products in float64;
 * - a touched row replays its skipped steps one by one (its moments keep moving it). Over a run this
 *   costs about (rows ever touched) × d per step, against the vocabulary × d of the full update.
 * The table, moments and bookkeeping live in plain arrays: this path is for the CPU-memory backends.
 */
export class LazyEmbeddingAdam {
  readonly m: Float32Array;
  readonly v: Float32Array;
  /** The step each row is current at (0 = the initial weights). */
  private readonly current: Int32Array;
  private readonly touched: Uint8Array;
  /** lr of every step so far (index = 1-based step), and running products of (1 − lr·wd). */
  private readonly lrs: number[] = [0];
  private readonly decayProduct: number[] = [1];
  /** Steps applied so far. */
  t = 0;

  constructor(
    readonly p: Float32Array,
    readonly rows: number,
    readonly width: number,
    readonly hyper: AdamWHyper,
  ) {
    if (p.length !== rows * width) throw new Error(`embedding table has ${p.length} values, expected ${rows}×${width}`);
    this.m = new Float32Array(p.length);
    this.v = new Float32Array(p.length);
    this.current = new Int32Array(rows);
    this.touched = new Uint8Array(rows);
  }

  /** The rows, brought up to the last step, as one [rows.length × width] array (the step's compact table). */
  gather(rows: ArrayLike<number>): Float32Array {
    const w = this.width;
    const out = new Float32Array(rows.length * w);
    for (let k = 0; k < rows.length; k++) {
      this.catchUp(rows[k], this.t);
      out.set(this.p.subarray(rows[k] * w, (rows[k] + 1) * w), k * w);
    }
    return out;
  }

  /**
   * Step t+1 with learning rate `lr`: the given rows get their gradient (grads is [rows.length × width],
   * multiplied by `scale`), every other row is left to be caught up when next read.
   */
  step(rows: ArrayLike<number>, grads: Float32Array, scale: number, lr: number): void {
    const t = this.t + 1;
    this.lrs.push(lr);
    this.decayProduct.push(this.decayProduct[t - 1] * (1 - lr * this.hyper.weightDecay));
    const s: AdamWStep = { ...this.hyper, lr, t };
    const w = this.width;
    for (let k = 0; k < rows.length; k++) {
      const r = rows[k];
      this.catchUp(r, t - 1);
      adamwArrays(this.p, this.m, this.v, grads, scale, s, r * w, (r + 1) * w, k * w);
      this.current[r] = t;
      this.touched[r] = 1;
    }
    this.t = t;
  }

  /** Brings every row up to the last step and returns the table (shared, not copied). */
  flush(): Float32Array {
    for (let r = 0; r < this.rows; r++) this.catchUp(r, this.t);
    return this.p;
  }

  /** A copy of the state, every row brought current first (the table's values are the caller's to save). */
  exportState(): LazyEmbeddingState {
    this.flush();
    const w = this.width;
    const rows = touchedRows(this.touched);
    const m = new Float32Array(rows.length * w);
    const v = new Float32Array(rows.length * w);
    rows.forEach((r, k) => {
      m.set(this.m.subarray(r * w, (r + 1) * w), k * w);
      v.set(this.v.subarray(r * w, (r + 1) * w), k * w);
    });
    return { t: this.t, m, v, touched: this.touched.slice(), lrs: Float64Array.from(this.lrs), decayProduct: Float64Array.from(this.decayProduct) };
  }

  /** Takes up a state from exportState(); the table `p` must hold the weights saved with it. */
  restore(s: LazyEmbeddingState): void {
    const w = this.width;
    const rows = s.touched.length === this.rows ? touchedRows(s.touched) : null;
    const whole = s.m.length === this.m.length && s.v.length === this.v.length;
    if (!rows || (!whole && (s.m.length !== rows.length * w || s.v.length !== rows.length * w)))
      throw new Error('embedding optimizer state does not fit this table');
    if (s.lrs.length !== s.t + 1 || s.decayProduct.length !== s.t + 1) throw new Error('embedding optimizer state: schedule history does not match its step');
    if (whole) {
      this.m.set(s.m);
      this.v.set(s.v);
    } else {
      this.m.fill(0);
      this.v.fill(0);
      rows.forEach((r, k) => {
        this.m.set(s.m.subarray(k * w, (k + 1) * w), r * w);
        this.v.set(s.v.subarray(k * w, (k + 1) * w), r * w);
      });
    }
    this.touched.set(s.touched);
    this.current.fill(s.t);
    this.lrs.length = 0;
    this.decayProduct.length = 0;
    for (let k = 0; k <= s.t; k++) {
      this.lrs.push(s.lrs[k]);
      this.decayProduct.push(s.decayProduct[k]);
    }
    this.t = s.t;
  }

  /** Replays the steps after current[r] up to `t`, all with zero gradient. */
  private catchUp(r: number, t: number): void {
    const from = this.current[r];
    if (from >= t) return;
    const w = this.width;
    const lo = r * w;
    const hi = lo + w;
    const { p, m, v } = this;
    if (!this.touched[r]) {
      // Zero moments stay zero: only the decoupled decay acts.
      const f = this.decayProduct[t] / this.decayProduct[from];
      for (let i = lo; i < hi; i++) p[i] *= f;
    } else {
      const { beta1: b1, beta2: b2, eps } = this.hyper;
      for (let k = from + 1; k <= t; k++) {
        const { decay, stepSize, sqrtBias2 } = adamwScalars({ ...this.hyper, lr: this.lrs[k], t: k });
        for (let i = lo; i < hi; i++) {
          const mi = b1 * m[i];
          const vi = b2 * v[i];
          m[i] = mi;
          v[i] = vi;
          p[i] = p[i] * decay - stepSize * (mi / (Math.sqrt(vi) / sqrtBias2 + eps));
        }
      }
    }
    this.current[r] = t;
  }
}

function touchedRows(touched: Uint8Array): number[] {
  const rows: number[] = [];
  for (let r = 0; r < touched.length; r++) if (touched[r]) rows.push(r);
  return rows;
}
