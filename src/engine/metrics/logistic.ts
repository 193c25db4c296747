/**
 * Penalised logistic regression with a fixed amount of work, for the maps fitted on held-out questions
 * (calibrationMap.ts, selector.ts). Minimises
 *   Σ_rows [−y log σ(x·β) − (1 − y) log(1 − σ(x·β))] + ½ Σ_j penalty_j (β_j − prior_j)²
 * (y in [0, 1]: an answer whose candidates carry both labels counts by its share) by NEWTON_STEPS Newton
 * steps from the prior, each solved by Cholesky (the penalty keeps the Hessian positive definite) and
 * halved (at most MAX_HALVINGS times) until the objective does not rise: a plain Newton step overshoots
 * when most rows are near-certain (a vote share of 1 is common). No tolerance decides when to stop, so the
 * Python twin (python/eorm/metrics/cross_fit.py, fit_logistic) gives the same coefficients to rounding.
 */

export const NEWTON_STEPS = 30;
const MAX_HALVINGS = 30;

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Probabilities are kept this far from 0 and 1 for logits and log losses (a share of 1 is common: every candidate agrees). */
export const PROBABILITY_FLOOR = 1e-6;

export const clampProbability = (p: number): number => Math.min(1 - PROBABILITY_FLOOR, Math.max(PROBABILITY_FLOOR, p));

export const logit = (p: number): number => {
  const q = clampProbability(p);
  return Math.log(q / (1 - q));
};

/** x·β of row r of a row-major matrix with d columns. */
export function linear(x: ArrayLike<number>, r: number, beta: ArrayLike<number>): number {
  let z = 0;
  for (let j = 0; j < beta.length; j++) z += x[r * beta.length + j] * beta[j];
  return z;
}

/**
 * The rows a fit counts (weight ≠ 0) and, per such row at the β last evaluated, its logit z and
 * e^−|z|: the objective at an accepted β already computed what the next Newton step's gradient needs.
 */
interface Rows {
  index: Int32Array;
  weight: Float64Array;
  z: Float64Array;
  e: Float64Array;
}

/**
 * The arrays of one fit, kept between fits: a bootstrap refits thousands of times on the same rows, and
 * fresh arrays each time cost more in garbage collection than the fit's own arithmetic. A fit runs to the
 * end without yielding, so one set serves every fit.
 */
const scratch = { index: new Int32Array(0), weight: new Float64Array(0), values: new Float64Array(0) };

function countedRows(rows: number, weights: ArrayLike<number> | undefined): { rows: Rows; trial: { z: Float64Array; e: Float64Array } } {
  let n = 0;
  for (let r = 0; r < rows; r++) if (weights === undefined || weights[r] !== 0) n++;
  if (scratch.index.length < n) scratch.index = new Int32Array(n);
  if (scratch.weight.length < n) scratch.weight = new Float64Array(n);
  if (scratch.values.length < 4 * n) scratch.values = new Float64Array(4 * n);
  const index = scratch.index.subarray(0, n);
  const weight = scratch.weight.subarray(0, n);
  for (let r = 0, k = 0; r < rows; r++) {
    if (weights !== undefined && weights[r] === 0) continue;
    index[k] = r;
    weight[k++] = weights === undefined ? 1 : weights[r];
  }
  const part = (i: number) => scratch.values.subarray(i * n, (i + 1) * n);
  return { rows: { index, weight, z: part(0), e: part(1) }, trial: { z: part(2), e: part(3) } };
}

/** The penalised log loss at `beta` (each row counted by its weight), leaving each row's z and e^−|z| in `out`. */
function objective(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  penalty: ArrayLike<number>,
  prior: ArrayLike<number>,
  beta: ArrayLike<number>,
  rows: Rows,
  out: { z: Float64Array; e: Float64Array },
): number {
  let f = 0;
  for (let k = 0; k < rows.index.length; k++) {
    const r = rows.index[k];
    const z = linear(x, r, beta);
    // softplus(z) = log(1 + e^z) without overflow, from e^−|z|.
    const e = Math.exp(-Math.abs(z));
    out.z[k] = z;
    out.e[k] = e;
    f += rows.weight[k] * ((z > 0 ? z : 0) + Math.log1p(e) - y[r] * z);
  }
  for (let j = 0; j < beta.length; j++) f += 0.5 * penalty[j] * (beta[j] - prior[j]) ** 2;
  return f;
}

/** Solves A s = b for symmetric positive definite A (d×d, row-major), by Cholesky. */
function solveSpd(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const l = new Float64Array(d * d);
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * d + j];
      for (let k = 0; k < j; k++) s -= l[i * d + k] * l[j * d + k];
      l[i * d + j] = i === j ? Math.sqrt(s) : s / l[j * d + j];
    }
  }
  const z = new Float64Array(d);
  for (let i = 0; i < d; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * d + k] * z[k];
    z[i] = s / l[i * d + i];
  }
  const out = new Float64Array(d);
  for (let i = d - 1; i >= 0; i--) {
    let s = z[i];
    for (let k = i + 1; k < d; k++) s -= l[k * d + i] * out[k];
    out[i] = s / l[i * d + i];
  }
  return out;
}

/** A refit's options: rows counted `weights[r]` times (a bootstrap resample's multiplicities), Newton from `start` for `steps` steps. */
export interface LogisticOptions {
  weights?: ArrayLike<number>;
  start?: ArrayLike<number>;
  steps?: number;
}

/** β for rows `x` (row-major, prior.length columns) and targets `y`; the prior itself when there are no rows. */
export function fitLogistic(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  penalty: ArrayLike<number>,
  prior: ArrayLike<number>,
  opts: LogisticOptions = {},
): Float64Array {
  const d = prior.length;
  const counted = countedRows(y.length, opts.weights);
  const rows = counted.rows;
  let trial = counted.trial;
  let beta = Float64Array.from(opts.start ?? prior);
  let f = objective(x, y, penalty, prior, beta, rows, rows);
  for (let step = 0; step < (opts.steps ?? NEWTON_STEPS); step++) {
    const grad = new Float64Array(d);
    const hess = new Float64Array(d * d);
    for (let j = 0; j < d; j++) {
      grad[j] = penalty[j] * (beta[j] - prior[j]);
      hess[j * d + j] = penalty[j];
    }
    for (let k = 0; k < rows.index.length; k++) {
      const r = rows.index[k];
      const wr = rows.weight[k];
      // sigmoid(z) from e^−|z|, as sigmoid() computes it.
      const e = rows.e[k];
      const p = rows.z[k] >= 0 ? 1 / (1 + e) : e / (1 + e);
      const w = wr * p * (1 - p);
      const g = wr * (p - y[r]);
      for (let i = 0; i < d; i++) {
        const xi = x[r * d + i];
        grad[i] += g * xi;
        for (let j = 0; j <= i; j++) hess[i * d + j] += w * xi * x[r * d + j];
      }
    }
    for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) hess[j * d + i] = hess[i * d + j];
    const s = solveSpd(hess, grad, d);
    let t = 1;
    for (let halving = 0; halving <= MAX_HALVINGS; halving++, t /= 2) {
      const next = Float64Array.from(beta, (b, j) => b - t * s[j]);
      const fNext = objective(x, y, penalty, prior, next, rows, trial);
      if (fNext <= f) {
        beta = next;
        f = fNext;
        // The accepted β's values become the current ones; the old arrays take the next trial's.
        const accepted = trial;
        trial = { z: rows.z, e: rows.e };
        rows.z = accepted.z;
        rows.e = accepted.e;
        break;
      }
    }
  }
  return beta;
}
