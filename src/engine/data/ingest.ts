/**
 * JSONL file → Dataset: streams lines, validates each one, groups candidates by question.
 * Every call builds an independent Dataset (no shared state), so a training file and a
 * separate test file are simply two calls.
 */
import { Collector } from './formats/collector.ts';
import { DEFAULT_MAX_LINE_BYTES, splitLines } from './lines.ts';
import { parseCandidateLine } from './record.ts';
import type { Dataset, Group, IngestReport } from './types.ts';

/**
 * Version of the rules that turn a file into groups and answers: line validation (record.ts, lines.ts),
 * grouping and labels from gold answers (here), answer extraction and keys (answers.ts and its parts). Stored tokenizations are keyed by it
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

export interface IngestOptions {
  /** Default 8 MiB. Longer lines are rejected (`line_too_long`) and skipped without being buffered. */
  maxLineBytes?: number;
  totalBytes?: number;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
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

export async function ingestJsonl(stream: ReadableStream<Uint8Array>, options: IngestOptions = {}): Promise<Dataset> {
  // A training file read as one candidate per line: a line without a label or a gold answer is rejected at once.
  const collector = new Collector(true);
  const report = collector.report;
  const totalBytes = options.totalBytes ?? null;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;

  await splitLines(
    stream,
    {
      line(text, line, invalidUtf8) {
        if (invalidUtf8) report.invalidUtf8Lines++;
        if (!/\S/.test(text)) {
          report.blank++;
          return;
        }
        const parsed = parseCandidateLine(text, line);
        if (!parsed.ok) return collector.reject(parsed.error);
        const r = parsed.record;
        collector.line({ line, questionId: r.questionId, question: r.question, gold: r.gold, samples: [{ genText: r.genText, label: r.label, answer: r.answer, source: r.source }] });
      },
      tooLong(line, bytes) {
        collector.reject({ line, field: '(line)', kind: 'line_too_long', reason: `line too long: ${bytes} bytes (limit ${maxLineBytes})` });
      },
      progress(bytesRead, lines) {
        report.bytesRead = bytesRead;
        report.linesRead = lines;
        options.onProgress?.({ bytesRead, totalBytes, lines });
      },
    },
    { maxLineBytes, signal: options.signal },
  );

  const collected = collector.finish();
  if (report.accepted === 0) throw new NoValidLinesError(report);
  const groups = collected.groups as Group[];
  return { groups, candidateCount: collected.candidateCount, report, format: 'candidates', labelsFrom: collected.givenLabels ? 'given' : 'gold' };
}
