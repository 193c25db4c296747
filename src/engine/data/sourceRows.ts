/** The data panel's per-source rows: who wrote how many candidates, and how many of them are correct. */
import type { CandidateText, Group } from './types.ts';

export interface SourceRow {
  source: string;
  candidates: number;
  /** Share of its candidates labelled correct; null for a set without labels. */
  correctShare: number | null;
}

/** Rows in order of first appearance; a candidate without a source counts under its file, else `fallback`. */
export function sourceRows(groups: ReadonlyArray<Group<CandidateText & { label?: 0 | 1 }>>, fallback: string): SourceRow[] {
  const rows = new Map<string, { candidates: number; correct: number; labelled: boolean }>();
  for (const g of groups) {
    for (const c of g.candidates) {
      const name = c.source ?? c.file ?? fallback;
      const row = rows.get(name) ?? { candidates: 0, correct: 0, labelled: false };
      rows.set(name, row);
      row.candidates++;
      if (c.label !== undefined) {
        row.labelled = true;
        row.correct += c.label;
      }
    }
  }
  return [...rows].map(([source, r]) => ({ source, candidates: r.candidates, correctShare: r.labelled ? r.correct / r.candidates : null }));
}
