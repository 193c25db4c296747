/**
 * Does the verifier just prefer long (or short) answers? Within each question, Spearman's rank correlation
 * between energy and answer length in tokens, beside the same correlation between correctness and length,
 * averaged over questions (not pooled: a question's length scale and its energy offset stay its own), each
 * with a 95% bootstrap interval over questions. The lean is the verifier's rank correlation with length among
 * answers of the same label (within the right ones and within the wrong ones): a verifier that ignores length
 * given correctness has none on average, however correctness follows length (subtracting the label's
 * correlation from the energy's did not: a random verifier leant by −ρ(label, length)). Whether it is real
 * is an exact sign-flip test (pairedTest.ts), which keeps its 5% under no signal where the bootstrap interval
 * of so few questions does not quite. Two more baseline rules pick by length alone: the shortest answer, the
 * longest. python/eorm/metrics/length_bias.py is the twin, number for number (golden: lengthBias.golden.test.ts).
 *
 * Spearman's ρ is Pearson's correlation of midranks (tied values share the mean of their ranks); energies
 * rank by rankKey (non-finite ones last, tied). The figures are over the reported questions with both labels
 * and two answers of the same label with different lengths; energies that tie within every label order
 * nothing by length and count ρ = 0.
 */
import { bootstrapIntervals, BOOTSTRAP_RESAMPLES, mean } from '../bootstrap.ts';
import { type FiguresOver, hasBothLabels } from '../heldOut.ts';
import { signFlipTest } from '../pairedTest.ts';
import { pValue } from '../selectionSentence.ts';
import { LENGTH_RULES, type LengthBias, type LengthInterval, type LengthRule } from './lengthBiasTypes.ts';
import { bestOfNScore, rankKey } from '../rank.ts';
import type { SelectionReport } from '../selectionTypes.ts';
import type { ScoredGroup } from '../summary.ts';

/** 1-based ranks of `xs` in ascending order; tied values share the mean of their ranks. */
export function midranks(xs: ArrayLike<number>): Float64Array {
  const n = xs.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (xs[a] < xs[b] ? -1 : xs[a] > xs[b] ? 1 : 0));
  const out = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && xs[order[j + 1]] === xs[order[i]]) j++;
    for (let k = i; k <= j; k++) out[order[k]] = (i + j + 2) / 2;
    i = j + 1;
  }
  return out;
}

/** Adds Σ (rx − m)(ry − m), Σ (rx − m)², Σ (ry − m)² over the answers `at` to `sums`: rx, ry their midranks among them, m the mean rank. */
function addRankSums(x: ArrayLike<number>, y: ArrayLike<number>, at: number[], sums: [number, number, number]): void {
  const rx = midranks(at.map((i) => x[i]));
  const ry = midranks(at.map((i) => y[i]));
  // Midranks always sum to n(n + 1)/2, so their mean is exactly (n + 1)/2.
  const m = (at.length + 1) / 2;
  for (let i = 0; i < rx.length; i++) {
    sums[0] += (rx[i] - m) * (ry[i] - m);
    sums[1] += (rx[i] - m) * (rx[i] - m);
    sums[2] += (ry[i] - m) * (ry[i] - m);
  }
}

/** Spearman's ρ of x and y (Pearson's of their midranks); NaN when either is constant. Sums run left to right. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const sums: [number, number, number] = [0, 0, 0];
  addRankSums(
    x,
    y,
    Array.from({ length: x.length }, (_, i) => i),
    sums,
  );
  return sums[0] / Math.sqrt(sums[1] * sums[2]);
}

const withLabel = (labels: ArrayLike<number>, want: number): number[] => Array.from({ length: labels.length }, (_, i) => i).filter((i) => labels[i] === want);

/**
 * Spearman's ρ of x and y among answers of the same label: midranks within the wrong answers and within the
 * right ones, each centred on its own mean, then one Pearson correlation over the question. NaN when y is
 * constant within every label; 0 when it is not but x is.
 */
export function withinLabelSpearman(x: ArrayLike<number>, y: ArrayLike<number>, labels: ArrayLike<number>): number {
  const sums: [number, number, number] = [0, 0, 0];
  for (const want of [0, 1]) addRankSums(x, y, withLabel(labels, want), sums);
  if (sums[2] === 0) return NaN;
  return sums[1] > 0 ? sums[0] / Math.sqrt(sums[1] * sums[2]) : 0;
}

/** Two answers of the same label have different lengths: the lean is defined. */
function lengthsDifferWithinALabel(g: ScoredGroup): boolean {
  const lengths = lengthsOf(g);
  return [0, 1].some((want) => {
    const at = withLabel(g.labels, want);
    return at.some((i) => lengths[i] !== lengths[at[0]]);
  });
}

/** A length rule's score on one group: the expected label of a random pick among the tied shortest (longest) answers. */
export function lengthRuleScore(g: ScoredGroup, rule: LengthRule): number {
  const lengths = lengthsOf(g);
  return bestOfNScore(rule === 'shortest' ? lengths : Array.from(lengths, (x) => -x), g.labels);
}

function lengthsOf(g: ScoredGroup): ArrayLike<number> {
  if (!g.lengths || g.lengths.length !== g.labels.length)
    throw new RangeError(`length check: a group has ${g.lengths?.length ?? 'no'} lengths for ${g.labels.length} candidates`);
  return g.lengths;
}

/** Two decimals with a sign; one that rounds to 0.00 reads +0.00, never -0.00. */
const signed = (x: number): string => {
  const digits = Math.abs(x).toFixed(2);
  return (x < 0 && digits !== '0.00' ? '-' : '+') + digits;
};
const questions = (n: number): string => `${n} question${n === 1 ? '' : 's'}`;

/** The one sentence; the twin is python/eorm/metrics/length_bias.py's length_sentence (toFixed rounding). */
export function lengthSentence(b: Omit<LengthBias, 'sentence' | 'rules' | 'allQuestions'>): string {
  if (b.groups === 0)
    return 'No question has both a right and a wrong answer and two answers of the same label with different lengths: nothing to check length against.';
  // Said the way it leans: the lean toward shorter answers is the negated lean, its interval turned round.
  const shorter = b.real && b.lean < 0;
  const [d, lo, hi] = shorter ? [-b.lean, -b.leanCi.hi, -b.leanCi.lo] : [b.lean, b.leanCi.lo, b.leanCi.hi];
  const way = shorter ? 'shorter' : 'longer';
  const head = b.real ? `leans on length more than correctness does, toward ${way} answers` : 'does not lean on length more than correctness does';
  return (
    `The verifier ${head}: over ${questions(b.groups)}, the within-question rank correlation of length with energy is ${signed(b.energyCorr)} ` +
    `(lower energy = preferred) and with being correct ${signed(b.labelCorr)}; among answers equally correct, its lean toward ${way} answers is ${signed(d)} ` +
    `(95% CI ${signed(lo)} to ${signed(hi)}; sign-flip test ${pValue(b.leanP)}).`
  );
}

export interface LengthBiasOptions {
  /** Seeds the bootstrap (the selection report's seed). */
  seed: number;
  /** Which questions the figures are over, as the evaluation's other figures (heldOut.ts). */
  figuresOver: FiguresOver;
  resamples?: number;
}

/** The length check of an evaluation's scored groups (every group needs `lengths`). */
export function lengthBias(scored: ReadonlyArray<ScoredGroup>, opts: LengthBiasOptions): LengthBias {
  const resamples = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const every = scored.filter((g) => g.labels.length > 0);
  const reported = opts.figuresOver === 'bothLabels' ? every.filter(hasBothLabels) : every;
  const checked = reported.filter((g) => hasBothLabels(g) && lengthsDifferWithinALabel(g));
  const rhoE = Float64Array.from(checked, (g) => {
    const r = spearman(Array.from(g.energies, rankKey), lengthsOf(g));
    return Number.isNaN(r) ? 0 : r;
  });
  const rhoL = Float64Array.from(checked, (g) => spearman(g.labels, lengthsOf(g)));
  // Lower energy = preferred: the lean toward longer answers is the negated correlation.
  const lean = Float64Array.from(checked, (g) => -withinLabelSpearman(Array.from(g.energies, rankKey), lengthsOf(g), g.labels));
  const [energyCorrCi, labelCorrCi, leanCi] = bootstrapIntervals([rhoE, rhoL, lean], resamples, opts.seed);
  // Exact where few questions count; the same verdict whatever the report's seed (pairedTest.ts).
  const leanP = lean.length > 0 ? signFlipTest(lean).p : NaN;
  const figures = {
    groups: checked.length,
    energyCorr: mean(rhoE),
    energyCorrCi,
    labelCorr: mean(rhoL),
    labelCorrCi,
    lean: mean(lean),
    leanCi,
    leanP,
    real: leanP < 0.05,
  };

  const scores = LENGTH_RULES.map((r) => Float64Array.from(reported, (g) => lengthRuleScore(g, r)));
  const cis: LengthInterval[] = bootstrapIntervals(scores, resamples, opts.seed);
  const rules = { shortest: { accuracy: mean(scores[0]), ci: cis[0] }, longest: { accuracy: mean(scores[1]), ci: cis[1] } };
  const allQuestions = {
    groups: every.length,
    rules: { shortest: mean(every.map((g) => lengthRuleScore(g, 'shortest'))), longest: mean(every.map((g) => lengthRuleScore(g, 'longest'))) },
  };
  return { ...figures, sentence: lengthSentence(figures), rules, ...(opts.figuresOver === 'bothLabels' ? { allQuestions } : {}) };
}

/** An evaluation's figures with the length check of the same scored groups in their selection report. */
export function withLengthCheck<F extends { selection: SelectionReport }>(scored: ReadonlyArray<ScoredGroup>, opts: LengthBiasOptions, figures: F): F {
  return { ...figures, selection: { ...figures.selection, length: lengthBias(scored, opts) } };
}
