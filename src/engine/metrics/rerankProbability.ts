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
import type { ProbabilityMap } from './selectionTypes.ts';

export function rerankAnswers(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, map: ProbabilityMap): AnswerShare[] {
  const rows = answerShares(answers, energies, map.temperature);
  const named = rows.filter((r) => r.answer !== null); // slot order: first appearance, as answerFeatures
  if (map.use === 'selector' && map.selector) {
    const p = selectorProbabilities(answerFeatures(answers, energies, new Uint8Array(answers.length)).x, map.selector);
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

/** A map recorded in a model file's metadata (untrusted: written by any tool), or null when it is not a whole one. */
export function readProbabilityMap(v: unknown): ProbabilityMap | null {
  if (v === null || typeof v !== 'object') return null;
  const m = v as Record<string, unknown>;
  if (!finite(m.temperature) || m.temperature <= 0) return null;
  const platt = m.platt as Record<string, unknown> | null | undefined;
  if (platt !== null && !(platt && finite(platt.a) && finite(platt.b))) return null;
  const selector = m.selector;
  if (selector !== null && !(Array.isArray(selector) && selector.length === SELECTOR_FEATURES.length && selector.every(finite))) return null;
  if (m.use !== 'vote' && m.use !== 'selector') return null;
  return { temperature: m.temperature, platt: platt ? { a: platt.a as number, b: platt.b as number } : null, selector: selector as number[] | null, use: m.use };
}

/** What Rerank's probability column is, in words. */
export function describeProbabilityMap(map: ProbabilityMap): string {
  if (map.use === 'selector' && map.selector) return "each answer's probability is the learned selector's (vote share and energy), the recommended rule";
  return map.platt ? "each answer's probability is Platt's map of its vote share" : "each answer's probability is its share of the vote";
}
