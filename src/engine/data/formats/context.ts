/** What the readers of one ingest share: the counts the panel reports and the fields they mapped. */
import type { Sources } from '../record.ts';
import type { RawLine } from './collector.ts';

export interface ReadContext {
  invalidMarkers: number;
  duplicateLines: number;
  unansweredRequests: number;
  /** Fields that gave questions, samples, labels and gold answers, by role, in order of first use. */
  mapped: { question: Set<string>; samples: Set<string>; labels: Set<string>; gold: Set<string> };
}

export function newContext(): ReadContext {
  return { invalidMarkers: 0, duplicateLines: 0, unansweredRequests: 0, mapped: { question: new Set(), samples: new Set(), labels: new Set(), gold: new Set() } };
}

/** Turns one parsed object into a line for the collector, or null when it adds nothing (read already); throws record.ts's Reject. */
export type ObjectReader = (obj: Record<string, unknown>, source: Sources, line: number) => RawLine | null;
