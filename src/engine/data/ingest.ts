/**
 * JSONL file → Dataset: streams lines, validates each one, groups candidates by question.
 * Every call builds an independent Dataset (no shared state), so a training file and a
 * separate test file are simply two calls.
 */
import { candidateKeys, matchesGold } from './answers.ts';
import { DEFAULT_MAX_LINE_BYTES, splitLines } from './lines.ts';
import { describeValue, parseCandidateLine } from './record.ts';
import type { Dataset, Group, IngestReport } from './types.ts';

/**
 * Version of the rules that turn a file into groups and answers: line validation (record.ts, lines.ts),
 * grouping and labels from gold answers (here), answer extraction and keys (answers.ts and its parts). Stored tokenizations are keyed by it
 * (worker/storage/datasetKey.ts): bump it whenever any of those rules changes, or a stored dataset
 * read under the old rules would be reused as if it were current.
 */
export const INGEST_RULES_VERSION = 2; // 2: answers read as a grader reads them, labels from gold answers

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
  constructor(report: IngestReport) {
    const why = report.errors.length > 0 ? `all ${report.errors.length} non-blank lines were rejected` : 'the file has no non-blank line';
    super(`No valid line in the file: ${why} (${report.linesRead} lines read).`);
    this.name = 'NoValidLinesError';
    this.report = report;
  }
}

export async function ingestJsonl(stream: ReadableStream<Uint8Array>, options: IngestOptions = {}): Promise<Dataset> {
  const report: IngestReport = { bytesRead: 0, linesRead: 0, accepted: 0, rejected: 0, blank: 0, invalidUtf8Lines: 0, errors: [] };
  const groups: Group[] = [];
  const byKey = new Map<string, Group>();
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
        if (!parsed.ok) {
          report.rejected++;
          report.errors.push(parsed.error);
          return;
        }
        const r = parsed.record;
        // The prefixes keep an id and a question text that happen to be equal apart.
        const key = r.questionId !== null ? `id:${r.questionId}` : `q:${r.question}`;
        let group = byKey.get(key);
        if (group !== undefined && group.question !== r.question) {
          // Joining them would tokenize this candidate with another question's text.
          report.rejected++;
          report.errors.push({
            line,
            field: 'question',
            kind: 'conflicting_question',
            reason: `question_id ${describeValue(r.questionId)} was first used on line ${group.candidates[0].line} with another question (${describeValue(group.question)}); give each question its own question_id, or write the question identically`,
          });
          return;
        }
        const { answerKey, textAnswerKey } = candidateKeys(r.answer, r.genText);
        const goldMatch = matchesGold(answerKey, r.gold);
        if (r.label === null && goldMatch === null) {
          report.rejected++;
          report.errors.push({
            line,
            field: 'label',
            kind: 'missing_field',
            reason: `missing, and the gold answer ${describeValue(r.gold)} has no final answer to label the line by; give "label" (0 or 1) or a gold answer`,
          });
          return;
        }
        report.accepted++;
        if (group === undefined) {
          group = { questionId: r.questionId, question: r.question, candidates: [] };
          byKey.set(key, group);
          groups.push(group);
        }
        group.candidates.push({
          line,
          genText: r.genText,
          label: r.label ?? (goldMatch ? 1 : 0),
          labelFromGold: r.label === null,
          goldMatch,
          answer: r.answer,
          answerKey,
          textAnswerKey,
          gold: r.gold,
          source: r.source,
        });
      },
      tooLong(line, bytes) {
        report.rejected++;
        report.errors.push({ line, field: '(line)', kind: 'line_too_long', reason: `line too long: ${bytes} bytes (limit ${maxLineBytes})` });
      },
      progress(bytesRead, lines) {
        report.bytesRead = bytesRead;
        report.linesRead = lines;
        options.onProgress?.({ bytesRead, totalBytes, lines });
      },
    },
    { maxLineBytes, signal: options.signal },
  );

  if (report.accepted === 0) throw new NoValidLinesError(report);
  return { groups, candidateCount: report.accepted, report };
}
