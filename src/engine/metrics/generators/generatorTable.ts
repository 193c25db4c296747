/**
 * The generators of an evaluation's questions: each candidate's vote weights (from labelled reliabilities
 * fitted on training questions, and from agreement fitted on the evaluated questions themselves, which reads
 * no label), and the per-generator table the report shows. python/eorm/metrics/generator_table.py is the twin.
 */
import { fitAgreementGenerators } from './generatorAgreement.ts';
import { type GeneratorWeights, type SourcedAnswers, candidateWeights, voteWeight } from './generators.ts';
import type { GeneratorRow, GeneratorTable } from '../selectionTypes.ts';
import type { ScoredGroup } from '../summary.ts';

/** Scored groups with their candidates' sources (index into `names`, −1: none). */
export interface SourcedScored {
  groups: ScoredGroup[];
  sources: ReadonlyArray<ArrayLike<number>>;
  names: readonly string[];
}

const namesOf = (sources: ArrayLike<number>, names: readonly string[]): Array<string | null> => Array.from(sources, (s) => (s >= 0 ? names[s] : null));

/**
 * The groups with their generator weights attached (a copy of each), the agreement fit, and the table;
 * the groups unchanged and no table where fewer than two generators are named.
 */
export function withGenerators(
  s: SourcedScored,
  labelled: GeneratorWeights | null,
): { groups: ScoredGroup[]; agreement: GeneratorWeights | null; table: GeneratorTable | null } {
  const sourced: SourcedAnswers[] = s.groups.map((g, k) => ({ answers: g.answers, labels: g.labels, sources: s.sources[k] }));
  const agreement = fitAgreementGenerators(sourced, s.names);
  if (!agreement) return { groups: s.groups, agreement: null, table: null };
  const groups = s.groups.map((g, k) => {
    const names = namesOf(s.sources[k], s.names);
    return { ...g, generators: { labelled: labelled ? candidateWeights(labelled, names) : null, agreement: candidateWeights(agreement, names) } };
  });
  return { groups, agreement, table: generatorTable(s, labelled, agreement) };
}

function generatorTable(s: SourcedScored, labelled: GeneratorWeights | null, agreement: GeneratorWeights): GeneratorTable {
  const candidates = new Float64Array(s.names.length);
  const correct = new Float64Array(s.names.length);
  s.groups.forEach((g, k) => {
    for (let i = 0; i < g.labels.length; i++) {
      const src = s.sources[k][i];
      if (src < 0) continue;
      candidates[src]++;
      correct[src] += g.labels[i];
    }
  });
  const labelledIndex = new Map((labelled?.names ?? []).map((n, i) => [n, i]));
  const rows: GeneratorRow[] = s.names.map((source, i) => {
    const j = labelledIndex.get(source);
    const reliability = labelled ? (j === undefined ? labelled.pooled : labelled.reliability[j]) : NaN;
    return {
      source,
      candidates: candidates[i],
      observedCorrect: candidates[i] > 0 ? correct[i] / candidates[i] : NaN,
      reliability,
      reliabilityFree: agreement.reliability[i],
      weight: labelled ? voteWeight(reliability, labelled.alternatives) : NaN,
      weightFree: voteWeight(agreement.reliability[i], agreement.alternatives),
    };
  });
  return { alternatives: labelled ? labelled.alternatives : NaN, alternativesFree: agreement.alternatives, rows: rows.filter((r) => r.candidates > 0) };
}
