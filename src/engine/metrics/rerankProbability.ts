/**
 * Rerank's and Pick answers' probabilities: what the evaluation fitted on held-out questions
 * (SelectionReport.probabilityMap) applied to one question's candidates. `use` says whose figures pick and
 * give the picked answer its probability: the energy-weighted vote at the fitted temperature (its share
 * through Platt's map where one was chosen), the learned selector (its probability), a generator-weighted
 * vote (its posterior; generators.ts), or the plain count (majority vote: an answer's share of the candidates). The figures are coherent: the picked answer keeps its probability p,
 * the candidates without an answer keep their vote share (never more than 1 − p), and the other answers share
 * what is left in proportion to their own figures, so a question's probabilities sum to 1. A question whose
 * candidates all give one answer gets the share of such questions that were right on the held-out questions
 * (the map's `unanimous`, smoothed by half a question each way), not a certainty its energies cannot back.
 */
import { type AnswerShare, answerShares } from './answerShares.ts';
import { applyPlatt } from './calibration/calibrationMap.ts';
import { answerMass, answerPosterior } from './generators/generators.ts';
import { selectorCoefficients } from './recordedMap.ts';
import { PRIMARY_VERIFIER_RULE } from './rules.ts';
import { answerFeatures, selectorProbabilities } from './selector.ts';
import type { ProbabilityMap } from './selectionTypes.ts';
import { answerSlots } from './vote.ts';

/** What the selector reads besides answers and energies: per candidate, its generator weight and its named fields' values (missing: NaN, the question's mean). */
export interface SelectorInputs {
  generators?: ArrayLike<number> | null;
  fields?: ReadonlyArray<ArrayLike<number>>;
}

/** Whose figures pick (rules.json's `pick`): the vote, the selector's coefficients, a generator-weighted vote with these per-candidate weights, or the counts. */
export type ProbabilityUse =
  { by: 'vote' } | ({ by: 'coefficients' } & SelectorInputs) | { by: 'generators'; weights: ArrayLike<number> | null } | { by: 'counts' };

/** The map uses the selector: it was recommended (the primary verifier rule) and fitted. */
export const usesSelector = (map: ProbabilityMap): boolean => map.use === PRIMARY_VERIFIER_RULE && map.selector !== null;

/** The map's own rule: the selector where it was recommended and fitted, else the vote. */
export const mapUse = (map: ProbabilityMap): ProbabilityUse => (usesSelector(map) ? { by: 'coefficients' } : { by: 'vote' });

/** The held-out share of right answers on questions whose candidates all agree, smoothed; null where the map has none. */
export const unanimousRate = (map: ProbabilityMap): number | null => (map.unanimous ? (map.unanimous.right + 0.5) / (map.unanimous.questions + 1) : null);

/** Each named answer's own figure (slot order, as the rows) under `use`. */
function figures(answers: ReadonlyArray<string | null>, energies: ArrayLike<number>, map: ProbabilityMap, use: ProbabilityUse, shares: number[]): number[] {
  if (use.by === 'coefficients' && map.selector) {
    const names = map.selectorFields ?? [];
    const beta = selectorCoefficients(map.selector, names.length) ?? map.selector;
    // A field the answers do not carry counts as the question's mean on every candidate.
    const fields = names.map((_, f) => use.fields?.[f] ?? new Float64Array(answers.length).fill(NaN));
    return Array.from(selectorProbabilities(answerFeatures(answers, energies, new Uint8Array(answers.length), use.generators ?? null, fields).x, beta));
  }
  if (use.by === 'generators' || use.by === 'counts') {
    const slots = answerSlots(answers, new Uint8Array(answers.length));
    if (use.by === 'counts') return slots.votes.map((v) => v / answers.length);
    const weights = use.weights ?? new Float64Array(answers.length).fill(1);
    return Array.from(answerPosterior(answerMass(slots, weights)));
  }
  return shares;
}

export function rerankAnswers(
  answers: ReadonlyArray<string | null>,
  energies: ArrayLike<number>,
  map: ProbabilityMap,
  use: ProbabilityUse = mapUse(map),
): AnswerShare[] {
  const rows = answerShares(answers, energies, map.temperature);
  const named = rows.filter((r) => r.answer !== null); // slot order: first appearance, as answerFeatures
  const none = rows.find((r) => r.answer === null) ?? null;
  if (named.length === 0) return rows;
  const own = figures(
    answers,
    energies,
    map,
    use,
    named.map((r) => r.probability),
  );
  let best = 0;
  for (let k = 1; k < own.length; k++) if (own[k] > own[best]) best = k;
  named.forEach((r, k) => (r.picked = k === best));
  let p = use.by === 'vote' && map.platt ? applyPlatt(map.platt, own[best]) : own[best];
  const rate = unanimousRate(map);
  if (named.length === 1 && none === null && rate !== null) p = rate;
  named[best].probability = p;
  if (none) none.probability = Math.min(none.probability, 1 - p);
  const rest = Math.max(0, 1 - p - (none?.probability ?? 0));
  let total = 0;
  named.forEach((_, k) => k !== best && (total += own[k]));
  named.forEach((r, k) => {
    if (k !== best) r.probability = total > 0 ? (rest * own[k]) / total : rest / (named.length - 1);
  });
  return rows;
}

/** What Rerank's probability column is, in words; `pasted`: for answers pasted as text, which carry none of the lines' fields. */
export function describeProbabilityMap(map: ProbabilityMap, opts: { pasted?: boolean } = {}): string {
  const unanimous = map.unanimous
    ? `; a question whose candidates all agree gets the held-out share of such questions that were right (${map.unanimous.questions} questions)`
    : '';
  const fields = opts.pasted && usesSelector(map) ? (map.selectorFields ?? []) : [];
  const missing = fields.length > 0 ? `; pasted answers carry no ${fields.join(', ')}: the selector reads each at the question's mean` : '';
  return describeUse(map) + unanimous + missing;
}

function describeUse(map: ProbabilityMap): string {
  const fields = map.selectorFields ?? [];
  if (usesSelector(map))
    return `each answer's probability is the learned selector's (vote share, energy${fields.map((f) => `, ${f}`).join('')}), the recommended rule`;
  return map.platt ? "each answer's probability is Platt's map of its vote share" : "each answer's probability is its share of the vote";
}
