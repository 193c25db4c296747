/**
 * Rerank's probabilities: what the evaluation fitted on held-out questions (SelectionReport.probabilityMap)
 * applied to pasted candidates. With the learned selector recommended, each answer's probability is the
 * selector's and its pick the selector's; otherwise the energy-weighted vote at the fitted temperature picks,
 * and each answer's share goes through Platt's map when one was chosen (else the share itself). The
 * no-answer row keeps its share of the vote: it is never a pick.
 */
import { type AnswerShare, answerShares } from './answerShares.ts';
import { applyPlatt } from './calibrationMap.ts';
import { SELECTOR_FEATURES, answerFeatures, selectorProbabilities } from './selector.ts';
import type { GeneratorWeights } from './generators.ts';
import { SELECTION_RULES } from './rules.ts';
import type { ProbabilityMap } from './selectionTypes.ts';

export function rerankAnswers(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, map: ProbabilityMap): AnswerShare[] {
  const rows = answerShares(answers, energies, map.temperature);
  const named = rows.filter((r) => r.answer !== null); // slot order: first appearance, as answerFeatures
  if (map.use === 'selector' && map.selector) {
    const p = selectorProbabilities(answerFeatures(answers, energies, new Uint8Array(answers.length)).x, selectorCoefficients(map.selector) ?? map.selector);
    let best = -1;
    named.forEach((r, k) => {
      r.probability = p[k];
      r.picked = false;
      if (best < 0 || p[k] > p[best]) best = k;
    });
    if (best >= 0) named[best].picked = true;
  } else if (map.platt) {
    for (const r of named) r.probability = applyPlatt(map.platt, r.probability);
  }
  return rows;
}

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** A selector recorded before the generator feature (5 coefficients) reads as one whose generator coefficient is 0. */
export function selectorCoefficients(v: unknown): number[] | null {
  if (!Array.isArray(v) || !v.every(finite)) return null;
  if (v.length === SELECTOR_FEATURES.length) return v as number[];
  if (v.length === SELECTOR_FEATURES.length - 1) return [...(v as number[]), 0];
  return null;
}

/** Recorded generator weights (untrusted), or null when they are not whole. */
export function readGeneratorWeights(v: unknown): GeneratorWeights | null {
  if (v === null || typeof v !== 'object') return null;
  const w = v as Record<string, unknown>;
  const names = w.names;
  const reliability = w.reliability;
  const answers = w.answers;
  const rate = (x: unknown): x is number => finite(x) && x > 0 && x < 1;
  if (w.method !== 'labels' && w.method !== 'agreement') return null;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return null;
  if (!Array.isArray(reliability) || reliability.length !== names.length || !reliability.every(rate)) return null;
  if (!Array.isArray(answers) || answers.length !== names.length || !answers.every(finite)) return null;
  if (!rate(w.pooled) || !finite(w.alternatives) || w.alternatives < 2) return null;
  return { method: w.method, names: names as string[], reliability: reliability as number[], answers: answers as number[], pooled: w.pooled, alternatives: w.alternatives };
}

/** A map recorded in a model file's metadata (untrusted: written by any tool), or null when it is not a whole one. */
export function readProbabilityMap(v: unknown): ProbabilityMap | null {
  if (v === null || typeof v !== 'object') return null;
  const m = v as Record<string, unknown>;
  if (!finite(m.temperature) || m.temperature <= 0) return null;
  const platt = m.platt as Record<string, unknown> | null | undefined;
  if (platt !== null && !(platt && finite(platt.a) && finite(platt.b))) return null;
  const selector = m.selector === null ? null : selectorCoefficients(m.selector);
  if (m.selector !== null && selector === null) return null;
  if (m.use !== 'vote' && m.use !== 'selector') return null;
  const recommended = SELECTION_RULES.find((r) => r === m.recommended);
  const generators = m.generators === undefined || m.generators === null ? null : readGeneratorWeights(m.generators);
  return {
    temperature: m.temperature,
    platt: platt ? { a: platt.a as number, b: platt.b as number } : null,
    selector,
    use: m.use,
    ...(recommended ? { recommended } : {}),
    ...(generators ? { generators } : {}),
  };
}

/** What Rerank's probability column is, in words. */
export function describeProbabilityMap(map: ProbabilityMap): string {
  if (map.use === 'selector' && map.selector) return "each answer's probability is the learned selector's (vote share and energy), the recommended rule";
  return map.platt ? "each answer's probability is Platt's map of its vote share" : "each answer's probability is its share of the vote";
}
