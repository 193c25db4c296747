/**
 * The numeric fields of the lines (CandidateText.scores) that a user names for the selector (another reward
 * model's `score`, a mean `logprob`): per field, each candidate's value, NaN where its line has none.
 */
import type { CandidateText, Group } from './types.ts';

/** One question's candidates' values of each named field. */
export const groupFieldValues = (candidates: ReadonlyArray<CandidateText>, names: ReadonlyArray<string>): Float64Array[] =>
  names.map((name) => Float64Array.from(candidates, (c) => c.scores?.[name] ?? NaN));

/** Per named field, every candidate's value in view order (group after group, as trainingView lays them out). */
export interface CandidateFields {
  names: string[];
  values: Float64Array[];
}

/**
 * The named fields some line of these groups carries (a name no line has, left from another file's settings,
 * is dropped, as python/'s --selector-field refuses it), with every candidate's values.
 */
export function candidateFields(groups: ReadonlyArray<Group<CandidateText>>, names: ReadonlyArray<string>): CandidateFields {
  const all = groups.flatMap((g) => g.candidates);
  const carried = names.filter((name) => all.some((c) => c.scores?.[name] !== undefined));
  return { names: carried, values: groupFieldValues(all, carried) };
}
