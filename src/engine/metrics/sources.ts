/**
 * Per-source audit: for the generators that wrote the candidates (the lines' `source`), how often the
 * model's Best-of-N pick is theirs, against how often chance and their own correctness would make it.
 * A learned verifier can learn who wrote an answer instead of whether it is right; this table shows it.
 * python/eorm/metrics/sources.py computes the same rows, operation for operation (a golden test pins both).
 *
 * Which groups count: every non-empty group evaluated. Shares are over those groups and sum to 1 over
 * the rows when every candidate names its source (candidates without one belong to no row).
 * Picks follow Best-of-N exactly: a group's pick is shared equally among the candidates tied at the
 * lowest energy, non-finite energies ranking as +Infinity (rank.ts). A source's pairwise accuracy is over
 * the (correct, incorrect) pairs of one question in which it wrote at least one of the two (a pair of two
 * sources counts for both), ties 1/2: whether the model orders its answers right against the others of
 * the same question. Pairs inside one source would be the literal "within the source", but generators
 * usually write one answer per question, so those barely exist. Mean energies take non-finite values as
 * they are, like the summary's energy statistics.
 *
 * "Picked far above its correctness" (`flagged`) — all three must hold:
 * - enough support: at least FLAG_MIN_PICKS picks of the source (expected count, ties split);
 * - the model prefers it: pickedShare ≥ FLAG_RATIO × chanceShare (a random pick's share);
 * - its correctness does not explain that: pickedShare ≥ FLAG_RATIO × earnedShare, the share a picker
 *   that knew the labels but not the sources would give it (per question, a uniform pick among the
 *   correct candidates, among all when none is correct). Measured within each question, so a source
 *   that happens to answer the easy questions is not flagged for it.
 * The second condition keeps a weak source from being flagged merely because an uninformative model
 * picks it at chance while its correctness earns less; the third keeps a strong source from being
 * flagged for being picked as often as its correct answers deserve.
 */
import type { SourceRow } from './selectionTypes.ts';
import { rankKey } from './rank.ts';

export const FLAG_RATIO = 1.5;
export const FLAG_MIN_PICKS = 20;

export interface SourcedGroup {
  energies: ArrayLike<number>;
  /** 1 = correct, 0 = wrong. */
  labels: ArrayLike<number>;
  /** Per candidate: an index into the audit's `names`, or -1 when the line gives no source. */
  sources: ArrayLike<number>;
}

interface Tally {
  candidates: number;
  correct: number;
  picked: number;
  chance: number;
  earned: number;
  pairs: number;
  concordant: number;
  sumCorrect: number;
  sumIncorrect: number;
  nIncorrect: number;
}

const rate = (k: number, n: number): number => (n > 0 ? k / n : NaN);

function blank(): Tally {
  return { candidates: 0, correct: 0, picked: 0, chance: 0, earned: 0, pairs: 0, concordant: 0, sumCorrect: 0, sumIncorrect: 0, nIncorrect: 0 };
}

/** The (correct, incorrect) pairs of one group, each credited to the sources of its two candidates (once when they share one). */
function tallyPairs(g: SourcedGroup, tallies: Tally[]): void {
  const n = g.energies.length;
  for (let i = 0; i < n; i++) {
    if (g.labels[i] !== 1) continue;
    const kp = rankKey(g.energies[i]);
    const si = g.sources[i];
    for (let j = 0; j < n; j++) {
      if (g.labels[j] !== 0) continue;
      const kn = rankKey(g.energies[j]);
      const v = kp < kn ? 1 : kp === kn ? 0.5 : 0;
      const sj = g.sources[j];
      if (si >= 0) {
        tallies[si].pairs++;
        tallies[si].concordant += v;
      }
      if (sj >= 0 && sj !== si) {
        tallies[sj].pairs++;
        tallies[sj].concordant += v;
      }
    }
  }
}

/**
 * One row per source present among the groups' candidates, in `names` order; [] when no candidate
 * names a source. `names[k]` is the source whose candidates carry index k.
 */
export function sourceAudit(groups: ReadonlyArray<SourcedGroup>, names: ReadonlyArray<string>): SourceRow[] {
  const tallies = names.map(blank);
  let nGroups = 0;
  groups.forEach((g, gi) => {
    const n = g.energies.length;
    if (g.labels.length !== n || g.sources.length !== n) {
      throw new RangeError(`group ${gi}: ${n} energies, ${g.labels.length} labels, ${g.sources.length} sources (must be equal)`);
    }
    if (n === 0) return;
    nGroups++;
    let min = Infinity;
    let tied = 0;
    let nCorrect = 0;
    for (let i = 0; i < n; i++) {
      const e = rankKey(g.energies[i]);
      if (e < min) {
        min = e;
        tied = 1;
      } else if (e === min) tied++;
      nCorrect += g.labels[i];
    }
    for (let i = 0; i < n; i++) {
      const s = g.sources[i];
      if (s < 0) continue;
      const t = tallies[s];
      if (t === undefined) throw new RangeError(`group ${gi}, candidate ${i}: source index ${s} is not in names (${names.length})`);
      t.candidates++;
      t.chance += 1 / n;
      if (rankKey(g.energies[i]) === min) t.picked += 1 / tied;
      if (g.labels[i] === 1) {
        t.correct++;
        t.sumCorrect += g.energies[i];
        t.earned += 1 / nCorrect;
      } else {
        t.nIncorrect++;
        t.sumIncorrect += g.energies[i];
        if (nCorrect === 0) t.earned += 1 / n;
      }
    }
    if (nCorrect > 0 && nCorrect < n) tallyPairs(g, tallies);
  });

  const rows: SourceRow[] = [];
  tallies.forEach((t, s) => {
    if (t.candidates === 0) return;
    const pickedShare = t.picked / nGroups;
    const chanceShare = t.chance / nGroups;
    const earnedShare = t.earned / nGroups;
    rows.push({
      source: names[s],
      candidates: t.candidates,
      shareCorrect: t.correct / t.candidates,
      pickedShare,
      chanceShare,
      earnedShare,
      picks: t.picked,
      pairwise: rate(t.concordant, t.pairs),
      meanEnergyCorrect: rate(t.sumCorrect, t.correct),
      meanEnergyIncorrect: rate(t.sumIncorrect, t.nIncorrect),
      flagged: t.picked >= FLAG_MIN_PICKS && pickedShare >= FLAG_RATIO * chanceShare && pickedShare >= FLAG_RATIO * earnedShare,
    });
  });
  return rows;
}
