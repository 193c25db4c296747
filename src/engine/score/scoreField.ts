/**
 * Evaluate scores a file brings, without a model: each candidate line's numeric field (`energy` by default;
 * another reward model's `score`, a mean log-probability…) read as an energy (lower = better, negated where
 * higher is better) and given the whole evaluation a model's energies get, over every question as for a test
 * file. python/eorm/score_field.py is the twin (`eorm.score --score-field NAME [--higher-is-better] --json`).
 * The values are taken as float32, as a model's energies are, so both sides compute on the same numbers.
 */
import type { Candidate, Group, TrainingView } from '../data/types.ts';
import { GPT2_EOT } from '../data/tokenize/gpt2.ts';
import { type Evaluation, evaluationOf } from './evaluation.ts';
import { candidateFields } from '../data/candidateFields.ts';

export const DEFAULT_SCORE_FIELD = 'energy';

/** Each candidate's `field` in view order, as energies; a plain message naming the first line without one. */
export function fieldEnergies(groups: ReadonlyArray<Group<Candidate>>, field: string, higherIsBetter: boolean): Float32Array {
  const out: number[] = [];
  for (const g of groups) {
    for (const c of g.candidates) {
      const v = c.scores?.[field];
      if (v === undefined) {
        throw new Error(
          `line ${c.line}${c.file ? ` of ${c.file}` : ''}: field "${field}" is missing or not a number; every candidate line needs one (name another field, or load a file with one candidate per line that carries it).`,
        );
      }
      out.push(higherIsBetter ? -v : v);
    }
  }
  return Float32Array.from(out);
}

/** The fields every candidate of these groups carries, in the first candidate's order: what can be evaluated. */
export function scoreFields(groups: ReadonlyArray<Group<Candidate>>): string[] {
  const first = groups[0]?.candidates[0]?.scores;
  if (!first) return [];
  return Object.keys(first).filter((f) => groups.every((g) => g.candidates.every((c) => c.scores?.[f] !== undefined)));
}

/** The report on `field`'s values; the selector also reads `selectorFields` (the scored field left out). */
export function scoreFieldEvaluation(
  groups: ReadonlyArray<Group<Candidate>>,
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  field: string,
  higherIsBetter: boolean,
  seed: number,
  selectorFields: ReadonlyArray<string> = [],
): Evaluation {
  const energies = fieldEnergies(groups, field, higherIsBetter);
  const fields = candidateFields(
    groups,
    selectorFields.filter((f) => f !== field),
  );
  return evaluationOf(view, answers, Uint32Array.from(groups.keys()), energies, GPT2_EOT, seed, 'allQuestions', null, fields);
}
