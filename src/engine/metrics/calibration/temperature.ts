/**
 * The energy-weighted vote's temperature T (weights softmax(−E/T) per group), fitted on held-out questions
 * (crossFit.ts: out of fold for every figure, on all of them for later use; never on training groups).
 *
 * Criterion: the mean over groups of −log M(T), where M is the vote's mass on correct answers,
 * M = Σ_answers share_correct(a) · p(a) (temperature scaling's NLL of the true class, with every correct
 * answer counting, and an answer whose candidates carry both labels counting by its share; mass on
 * candidates without an answer counts as wrong). Unlike the NLL of the vote's chosen answer, M is smooth
 * in T: the chosen answer jumps as T moves from Best-of-N (T → 0) to majority vote (T → ∞).
 * Only groups where M can move count: a finite-energy candidate whose answer may be correct and one whose
 * answer may be wrong.
 *
 * Search: log T on [log 0.01, log 100], a 25-point grid, then golden-section around the best grid point
 * down to a bracket of 1e-6 in log T. Every step is fixed arithmetic, so the Python twin
 * (python/eorm/selection.py) finds the same T.
 */
import { rankKey } from '../rank.ts';
import { answerSlots } from '../vote.ts';
import type { ScoredGroup } from '../summary.ts';

export const TEMPERATURE_MIN = 0.01;
export const TEMPERATURE_MAX = 100;

/** The fit stopped at the search's lower end (within the search's tolerance): the criterion still fell there. */
export const atLowerBound = (t: number): boolean => t <= TEMPERATURE_MIN * 1.001;
const GRID_POINTS = 25;
/** The search stops once its bracket is this narrow in log T: a fitted T is known to this much, no closer. */
export const LOG_T_TOLERANCE = 1e-6;

/** One group reduced to what −log M(T) needs: finite energies and each one's answer's share correct (0: no answer). */
export interface FitGroup {
  energies: Float64Array;
  share: Float64Array;
}

/** The group as the fit reads it; null when it cannot inform T (see the file comment). */
function fitGroup(g: ScoredGroup): FitGroup | null {
  const s = answerSlots(g.answers, g.labels);
  const energies: number[] = [];
  const share: number[] = [];
  let canBeRight = false;
  let canBeWrong = false;
  for (let i = 0; i < g.energies.length; i++) {
    if (rankKey(g.energies[i]) === Infinity) continue;
    const k = s.slot[i];
    const q = k < 0 ? 0 : s.correct[k] / s.votes[k];
    energies.push(g.energies[i]);
    share.push(q);
    if (q > 0) canBeRight = true;
    if (q < 1) canBeWrong = true;
  }
  return canBeRight && canBeWrong ? { energies: Float64Array.from(energies), share: Float64Array.from(share) } : null;
}

/** The groups the fit can learn from (see the file comment). */
export function fitGroups(groups: ReadonlyArray<ScoredGroup>): FitGroup[] {
  const out: FitGroup[] = [];
  for (const g of groups) {
    const f = fitGroup(g);
    if (f) out.push(f);
  }
  return out;
}

/**
 * log Σ exp(x_i) of finite x_i (at least one): max + log1p(Σ_{others} exp(x_i − max)), so that a group ranked
 * right by a wide margin keeps its tiny loss instead of rounding to 0 (the fit would see a flat floor).
 */
function logSumExp(xs: number[]): number {
  let top = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i] > xs[top]) top = i;
  let rest = 0;
  for (let i = 0; i < xs.length; i++) if (i !== top) rest += Math.exp(xs[i] - xs[top]);
  return xs[top] + Math.log1p(rest);
}

/** One group's −log M(T). */
function groupMassNll(g: FitGroup, temperature: number): number {
  const all: number[] = [];
  const right: number[] = [];
  for (let i = 0; i < g.energies.length; i++) {
    const x = -g.energies[i] / temperature;
    all.push(x);
    if (g.share[i] > 0) right.push(x + Math.log(g.share[i]));
  }
  return logSumExp(all) - logSumExp(right);
}

/** Mean over the groups of −log M(T). */
export function correctMassNll(groups: ReadonlyArray<FitGroup>, temperature: number): number {
  let total = 0;
  for (const g of groups) total += groupMassNll(g, temperature);
  return total / groups.length;
}

export interface TemperatureFit {
  temperature: number;
  /** Groups the fit learned from; 0 means T = 1, nothing fitted. */
  groups: number;
}

/** The T in [TEMPERATURE_MIN, TEMPERATURE_MAX] that minimises correctMassNll; T = 1 when no group can inform it. */
export function fitTemperature(scored: ReadonlyArray<ScoredGroup>): TemperatureFit {
  const groups = fitGroups(scored);
  if (groups.length === 0) return { temperature: 1, groups: 0 };
  const f = (u: number): number => correctMassNll(groups, Math.exp(u));
  const lo = Math.log(TEMPERATURE_MIN);
  const hi = Math.log(TEMPERATURE_MAX);
  const step = (hi - lo) / (GRID_POINTS - 1);
  let best = 0;
  let bestF = Infinity;
  for (let k = 0; k < GRID_POINTS; k++) {
    const v = f(lo + k * step);
    if (v < bestF) {
      bestF = v;
      best = k;
    }
  }
  let a = best > 0 ? lo + (best - 1) * step : lo;
  let b = best < GRID_POINTS - 1 ? lo + (best + 1) * step : hi;
  const invPhi = (Math.sqrt(5) - 1) / 2;
  let c = b - invPhi * (b - a);
  let d = a + invPhi * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > LOG_T_TOLERANCE) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - invPhi * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + invPhi * (b - a);
      fd = f(d);
    }
  }
  return { temperature: Math.exp((a + b) / 2), groups: groups.length };
}
