/** Presenting rejected lines: one-line messages, counts by kind, and the full list as a download. */
import type { LineError, LineErrorKind } from './types.ts';

/** `line 17, field "label": expected 0, 1, true or false, got "yes"` (or `line 3, (line): …`). */
export function lineErrorMessage(e: LineError): string {
  const where = e.field === '(line)' ? '(line)' : `field "${e.field}"`;
  return `${e.file === undefined ? '' : `${e.file} `}line ${e.line}, ${where}: ${e.reason}`;
}

export function countErrorsByKind(errors: readonly LineError[]): Record<LineErrorKind, number> {
  const counts: Record<LineErrorKind, number> = {
    invalid_json: 0,
    not_object: 0,
    missing_field: 0,
    wrong_type: 0,
    empty_question: 0,
    bad_label: 0,
    line_too_long: 0,
    conflicting_question: 0,
    request_failed: 0,
  };
  for (const e of errors) counts[e.kind]++;
  return counts;
}

export type ErrorListFormat = 'text' | 'csv' | 'jsonl';

const csvCell = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The whole error list as one file's text: `text` (one message per line), `csv` (RFC 4180) or `jsonl`. */
export function formatLineErrors(errors: readonly LineError[], format: ErrorListFormat): string {
  let rows: string[];
  if (format === 'text') rows = errors.map(lineErrorMessage);
  else if (format === 'jsonl')
    rows = errors.map((e) =>
      JSON.stringify({ ...(e.file === undefined ? {} : { file: e.file }), line: e.line, field: e.field, kind: e.kind, reason: e.reason }),
    );
  else if (errors.some((e) => e.file !== undefined))
    rows = ['file,line,field,kind,reason', ...errors.map((e) => [e.file ?? '', String(e.line), e.field, e.kind, e.reason].map(csvCell).join(','))];
  else rows = ['line,field,kind,reason', ...errors.map((e) => [String(e.line), e.field, e.kind, e.reason].map(csvCell).join(','))];
  return rows.length === 0 ? '' : `${rows.join(format === 'csv' ? '\r\n' : '\n')}${format === 'csv' ? '\r\n' : '\n'}`;
}
