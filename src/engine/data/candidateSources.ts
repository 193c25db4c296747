/**
 * Which generator wrote each candidate (the lines' optional `source` field), in view order: what the
 * per-source audit and the "hold out sources" split index by. trainingView() puts it on the view; a view
 * stored before that lacks it, and this rebuilds it from the Dataset, which always kept `source`.
 */
import type { CandidateSources, Dataset, TrainingView } from './types.ts';

const cache = new WeakMap<Dataset, CandidateSources>();

/** The candidates' sources (memoized per dataset: a dataset is never mutated after ingest). */
export function candidateSources(dataset: Dataset): CandidateSources {
  let out = cache.get(dataset);
  if (out === undefined) {
    const names: string[] = [];
    const ids = new Map<string, number>();
    const index = new Int32Array(dataset.candidateCount);
    let c = 0;
    for (const g of dataset.groups) {
      for (const cand of g.candidates) {
        let id = -1;
        if (cand.source !== null) {
          id = ids.get(cand.source) ?? -1;
          if (id < 0) {
            id = names.length;
            ids.set(cand.source, id);
            names.push(cand.source);
          }
        }
        index[c++] = id;
      }
    }
    out = { names, index };
    cache.set(dataset, out);
  }
  return out;
}

/** `view` with its candidates' sources: itself when it carries them, else a copy that does (a view stored before they were kept). */
export function withSources(view: TrainingView, dataset: Dataset): TrainingView {
  return view.sources ? view : { ...view, sources: candidateSources(dataset) };
}
