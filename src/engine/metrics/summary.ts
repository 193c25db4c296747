/**
 * Evaluation of an energy model on scored groups (a group = all candidates of one question;
 * lower energy = better). Pure and DOM-free: numbers in, numbers out.
 *
 * Which groups count where:
 * - Best-of-N and every baseline use all non-empty groups: on a test set a question whose
 *   candidates are all right (or all wrong) is still a question the reranker answers.
 * - pairwise / pairwiseMacro / meanMargin / btLoss only exist for groups with both labels,
 *   exactly the groups that carry a training loss.
 * - Groups with no candidates carry no information and are skipped (not counted in nGroups).
 * Empty input (or no group with both labels) gives counts of 0 and rates of NaN, never a fake 0%.
 *
 * Non-finite energies (NaN, ±Infinity: a diverged model) follow the one rule of rank.ts in every
 * pick and comparison (Best-of-N, pairwise, weighted vote): they rank as +Infinity. Averages of energies
 * (margin, BT loss, energy statistics) take them as they are, so they show as NaN or ±Infinity; nNonFinite
 * counts them.
 */
import { majorityVoteScore, weightedVoteScore } from './vote.ts';
import { bestOfNScore, rankKey } from './rank.ts';

export interface ScoredGroup {
  energies: ArrayLike<number>;
  /** 1 = correct, 0 = wrong. */
  labels: ArrayLike<number>;
  /** Canonical final answer per candidate; null = nothing extracted. */
  answers: ReadonlyArray<string | null>;
  /** Answer length in tokens per candidate (answerLength.ts), for the length check (lengthBias.ts); absent where nothing checks length. */
  lengths?: ArrayLike<number>;
  /**
   * Per candidate, its generator's vote weight (generators.ts): from the labels of training questions, and
   * from agreement alone; absent (or null) where none is known: that generator vote is then majority vote.
   */
  generators?: { labelled: ArrayLike<number> | null; agreement: ArrayLike<number> | null };
  /** Per numeric field the user named for the selector (ProbabilityMap.selectorFields), each candidate's value (NaN: the line has none). */
  fields?: ReadonlyArray<ArrayLike<number>>;
}

/** Mean and population standard deviation (divide by count) of a set of energies; NaN when count is 0. */
export interface EnergyStats {
  count: number;
  mean: number;
  std: number;
}

/**
 * Top-1 accuracies of the reference pickers, each a share of nGroups. The votes follow the tie rule of
 * the selection report (selection.ts): a random pick among tied answers, an answer correct with the share
 * of its candidates labelled correct; they equal its `majority` and `weightedVoteRaw` figures.
 */
export interface Baselines {
  /** Label of candidate 0 (generation order). */
  firstCandidate: number;
  /** Expected accuracy of a uniformly random pick: mean over groups of (correct / size). */
  randomExpected: number;
  /** majorityVoteScore; a group with no extracted answer counts as wrong. */
  majorityVote: number;
  /** weightedVoteScore with softmax(−E) weights (T = 1, unfitted); no answer counts as wrong. */
  weightedVote: number;
  /** Share of groups with at least one correct candidate: the ceiling for any reranker. */
  oracle: number;
}

export interface EvalSummary {
  /** Non-empty groups evaluated. */
  nGroups: number;
  nCandidates: number;
  /** Groups with both a correct and an incorrect candidate, and the (correct, incorrect) pairs in them. */
  nPairGroups: number;
  nPairs: number;
  /**
   * Best-of-N top-1 accuracy: mean over groups of the label of the lowest-energy candidate. When several
   * candidates tie at the lowest energy (identical inputs after truncation), a group scores the share of
   * correct ones among them: the expectation of a random pick among the tied minima, not candidate 0.
   */
  bestOfN: number;
  /**
   * Headline pairwise accuracy, micro-averaged: over all (correct, incorrect) pairs pooled across
   * groups, the share with E_pos < E_neg; ties count 1/2 (as in bestOfN). Large groups weigh more.
   */
  pairwise: number;
  /** The same per group (= that group's AUC), then averaged over groups with both labels. */
  pairwiseMacro: number;
  /** Mean over groups with both labels of (mean E_incorrect − mean E_correct); positive = good. */
  meanMargin: number;
  /** Group-wise Bradley–Terry loss: per group mean of softplus(E_pos − E_neg) over its pairs, averaged over groups. */
  btLoss: number;
  /** Over all candidates of all evaluated groups. */
  energy: { correct: EnergyStats; incorrect: EnergyStats };
  /** Groups where no candidate has an extracted answer (majority vote has nothing to vote on). */
  nNoAnswer: number;
  /** Candidates whose energy is NaN or ±Infinity; they rank last everywhere. Above 0, the model has diverged. */
  nNonFinite: number;
  baselines: Baselines;
}

/** softplus(x) = log(1 + e^x), returning x for x > 20 like torch.nn.functional.softplus (beta 1, threshold 20). */
export function softplus(x: number): number {
  // log1p keeps precision for very negative x, where exp(x) is tiny; for large x, exp would overflow.
  return x > 20 ? x : Math.log1p(Math.exp(x));
}

/** Throws on malformed input (a bug upstream, not a data property): mismatched lengths or labels other than 0/1. */
export function assertGroup(g: ScoredGroup, index: number): void {
  const n = g.energies.length;
  if (g.labels.length !== n || g.answers.length !== n) {
    throw new RangeError(`group ${index}: ${n} energies, ${g.labels.length} labels, ${g.answers.length} answers (must be equal)`);
  }
  for (let i = 0; i < n; i++) {
    const l = g.labels[i];
    if (l !== 0 && l !== 1) throw new RangeError(`group ${index}, candidate ${i}: label ${l} is not 0 or 1`);
  }
}

const rate = (k: number, n: number): number => (n > 0 ? k / n : NaN);

function stats(xs: number[]): EnergyStats {
  const count = xs.length;
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = rate(sum, count);
  // Two passes: subtracting the mean first avoids the cancellation of E[x²] − E[x]².
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  return { count, mean, std: Math.sqrt(rate(ss, count)) };
}

/** Pair statistics of one group that has both labels. */
function pairStats(g: ScoredGroup): { pairs: number; concordant: number; loss: number; margin: number } {
  const pos: number[] = [];
  const neg: number[] = [];
  for (let i = 0; i < g.energies.length; i++) (g.labels[i] === 1 ? pos : neg).push(g.energies[i]);
  let concordant = 0;
  let loss = 0;
  for (const ep of pos) {
    for (const en of neg) {
      const d = ep - en;
      const [kp, kn] = [rankKey(ep), rankKey(en)];
      concordant += kp < kn ? 1 : kp === kn ? 0.5 : 0;
      loss += softplus(d);
    }
  }
  const pairs = pos.length * neg.length;
  return { pairs, concordant, loss: loss / pairs, margin: stats(neg).mean - stats(pos).mean };
}

/** Best-of-N, pairwise accuracy, margin, BT loss, energy statistics and baselines over scored groups. */
export function evaluateGroups(groups: ReadonlyArray<ScoredGroup>): EvalSummary {
  let nGroups = 0;
  let nCandidates = 0;
  let best = 0;
  let first = 0;
  let random = 0;
  let majority = 0;
  let weighted = 0;
  let oracle = 0;
  let nNoAnswer = 0;
  let nNonFinite = 0;
  let nPairGroups = 0;
  let nPairs = 0;
  let concordant = 0;
  let aucSum = 0;
  let marginSum = 0;
  let lossSum = 0;
  const correctE: number[] = [];
  const incorrectE: number[] = [];

  groups.forEach((g, gi) => {
    assertGroup(g, gi);
    const n = g.energies.length;
    if (n === 0) return;
    nGroups++;
    nCandidates += n;
    let nCorrect = 0;
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(g.energies[i])) nNonFinite++;
      if (g.labels[i] === 1) {
        nCorrect++;
        correctE.push(g.energies[i]);
      } else incorrectE.push(g.energies[i]);
    }
    best += bestOfNScore(g.energies, g.labels);
    first += g.labels[0];
    random += nCorrect / n;
    if (g.answers.every((a) => a === null)) nNoAnswer++;
    majority += majorityVoteScore(g.answers, g.labels);
    weighted += weightedVoteScore(g.answers, g.energies, g.labels);
    if (nCorrect > 0) oracle++;

    if (nCorrect === 0 || nCorrect === n) return;
    const p = pairStats(g);
    nPairGroups++;
    nPairs += p.pairs;
    concordant += p.concordant;
    aucSum += p.concordant / p.pairs;
    marginSum += p.margin;
    lossSum += p.loss;
  });

  return {
    nGroups,
    nCandidates,
    nPairGroups,
    nPairs,
    bestOfN: rate(best, nGroups),
    pairwise: rate(concordant, nPairs),
    pairwiseMacro: rate(aucSum, nPairGroups),
    meanMargin: rate(marginSum, nPairGroups),
    btLoss: rate(lossSum, nPairGroups),
    energy: { correct: stats(correctE), incorrect: stats(incorrectE) },
    nNoAnswer,
    nNonFinite,
    baselines: {
      firstCandidate: rate(first, nGroups),
      randomExpected: rate(random, nGroups),
      majorityVote: rate(majority, nGroups),
      weightedVote: rate(weighted, nGroups),
      oracle: rate(oracle, nGroups),
    },
  };
}
