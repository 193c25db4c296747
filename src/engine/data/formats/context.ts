/** What the readers of one ingest share: the counts the panel reports and the fields they mapped. */
import type { Sources } from '../record.ts';
import type { RawLine } from './collector.ts';

export interface ReadContext {
  invalidMarkers: number;
  /** Of the markers, those that read like a label written as text ("1", "True"): said apart, they are easy to mistake. */
  textLabels: number;
  duplicateLines: number;
  unansweredRequests: number;
  /** Fields that gave questions, samples, labels and gold answers, by role, in order of first use. */
  mapped: { question: Set<string>; samples: Set<string>; labels: Set<string>; gold: Set<string> };
}

export function newContext(): ReadContext {
  return {
    invalidMarkers: 0,
    textLabels: 0,
    duplicateLines: 0,
    unansweredRequests: 0,
    mapped: { question: new Set(), samples: new Set(), labels: new Set(), gold: new Set() },
  };
}

const TEXT_LABEL = /^(?:[01](?:\.0*)?|true|false)$/i;

/** A correctness value given as a string: a marker counted as incorrect ("[invalid]"), noted apart when it reads like a label ("1"). */
export function markerSeen(ctx: ReadContext, text: string): void {
  ctx.invalidMarkers++;
  if (TEXT_LABEL.test(text.trim())) ctx.textLabels++;
}

/** Turns one parsed object into a line for the collector, or null when it adds nothing (read already); throws record.ts's Reject. */
export type ObjectReader = (obj: Record<string, unknown>, source: Sources, line: number) => RawLine | null;
