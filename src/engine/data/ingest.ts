/**
 * What reading a file (formats/readFiles.ts) tells beyond its Dataset: the version of its rules, its
 * progress, and the error of a file with no valid line.
 */
import type { IngestReport } from './types.ts';

/**
 * Version of the rules that turn a file into groups and answers: line validation (record.ts, lines.ts),
 * grouping and labels from gold answers (formats/collector.ts), answer extraction and keys (answers.ts and its parts). Stored tokenizations are keyed by it
 * (worker/storage/datasetKey.ts): bump it whenever any of those rules changes, or a stored dataset
 * read under the old rules would be reused as if it were current.
 */
export const INGEST_RULES_VERSION = 3; // 2: answers read as a grader reads them, labels from gold answers; 3: equal answers vote together (issue 44)

export interface IngestProgress {
  bytesRead: number;
  /** The file size when the caller knows it (File.size), for a percentage and an ETA. */
  totalBytes: number | null;
  lines: number;
}

/** Thrown when a file has no valid line; carries the report so the UI can show why. The caller keeps its previous dataset. */
export class NoValidLinesError extends Error {
  readonly report: IngestReport;
  /** `why`: what the lines lack when some were read without error but none gave a candidate (e.g. chat requests without their output). */
  constructor(report: IngestReport, why?: string) {
    why ??= report.errors.length > 0 ? `all ${report.errors.length} non-blank lines were rejected` : 'the file has no non-blank line';
    super(`No valid line in the file: ${why} (${report.linesRead} lines read).`);
    this.name = 'NoValidLinesError';
    this.report = report;
  }
}
