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

/** Per row at the β last evaluated, its logit z and e^−|z|: the objective at an accepted β already computed what the next Newton step's gradient needs. */
interface RowValues {
  z: Float64Array;
  e: Float64Array;
}

/** The penalised log loss at `beta`, leaving each row's z and e^−|z| in `out`. */
function objective(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  penalty: ArrayLike<number>,
  prior: ArrayLike<number>,
  beta: ArrayLike<number>,
  out: RowValues,
): number {
  let f = 0;
  for (let r = 0; r < y.length; r++) {
    const z = linear(x, r, beta);
    // softplus(z) = log(1 + e^z) without overflow, from e^−|z|.
    const e = Math.exp(-Math.abs(z));
    out.z[r] = z;
    out.e[r] = e;
    f += (z > 0 ? z : 0) + Math.log1p(e) - y[r] * z;
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

/** β for rows `x` (row-major, prior.length columns) and targets `y`; the prior itself when there are no rows. */
export function fitLogistic(x: ArrayLike<number>, y: ArrayLike<number>, penalty: ArrayLike<number>, prior: ArrayLike<number>): Float64Array {
  const d = prior.length;
  const n = y.length;
  let rows: RowValues = { z: new Float64Array(n), e: new Float64Array(n) };
  let trial: RowValues = { z: new Float64Array(n), e: new Float64Array(n) };
  let beta = Float64Array.from(prior);
  let f = objective(x, y, penalty, prior, beta, rows);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const grad = new Float64Array(d);
    const hess = new Float64Array(d * d);
    for (let j = 0; j < d; j++) {
      grad[j] = penalty[j] * (beta[j] - prior[j]);
      hess[j * d + j] = penalty[j];
    }
    for (let r = 0; r < n; r++) {
      // sigmoid(z) from e^−|z|, as sigmoid() computes it.
      const e = rows.e[r];
      const p = rows.z[r] >= 0 ? 1 / (1 + e) : e / (1 + e);
      const w = p * (1 - p);
      const g = p - y[r];
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
      const fNext = objective(x, y, penalty, prior, next, trial);
      if (fNext <= f) {
        beta = next;
        f = fNext;
        // The accepted β's values become the current ones; the old arrays take the next trial's.
        [rows, trial] = [trial, rows];
        break;
      }
    }
  }
  return beta;
}
