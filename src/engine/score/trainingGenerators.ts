/**
 * The generator reliabilities a model learns beside its weights: fitted on its training questions' labels
 * (metrics/generators/generators.ts), never on the held-out questions they are scored on. Null where the view names
 * fewer than two generators.
 */
import type { TrainingView } from '../data/types.ts';
import { type GeneratorWeights, type SourcedAnswers, fitLabelledGenerators } from '../metrics/generators/generators.ts';

export function trainingGenerators(
  view: TrainingView,
  answers: ReadonlyArray<string | null>,
  trainGroups: ArrayLike<number>,
  seed: number,
): GeneratorWeights | null {
  const sources = view.sources;
  if (!sources) return null;
  const groups: SourcedAnswers[] = Array.from(trainGroups, (g) => {
    const start = view.groupStart[g];
    const end = view.groupStart[g + 1];
    return { answers: answers.slice(start, end), labels: view.labels.subarray(start, end), sources: sources.index.subarray(start, end) };
  });
  return fitLabelledGenerators(groups, sources.names, seed);
}
