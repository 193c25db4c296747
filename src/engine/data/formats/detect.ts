/**
 * Which format a file is, from its content: a first non-blank `[` is a JSON array; otherwise its lines
 * are JSON objects whose keys say which reader takes them (the first object read decides, per file).
 */
import { type FormatName, type ObjectKind, OBJECT_KINDS } from './table.ts';

export type { ObjectKind };
export type Layout = 'jsonl' | 'array';

/** The first kind of the table (formats/table.ts) whose detection holds; anything else is read as candidates, whose errors then say which field is missing. */
export function objectKind(obj: Record<string, unknown>): ObjectKind {
  return OBJECT_KINDS.find((k) => k.detect(obj))?.kind ?? 'candidates';
}

/** The layout from the first non-blank character (a BOM is not content). */
export function layoutOf(firstChar: string | null): Layout {
  return firstChar === '[' ? 'array' : 'jsonl';
}

/** One file's format as the panel names it: its kind's format, 'json-array' for an array (unless its format keeps its name there). */
export function fileFormat(layout: Layout, kind: ObjectKind | null): FormatName {
  const format = OBJECT_KINDS.find((k) => k.kind === kind)?.format;
  if (format?.namedInArray) return format.name as FormatName;
  if (layout === 'array') return 'json-array';
  return (format?.name as FormatName | undefined) ?? 'candidates';
}

/** Several files: a chat batch's request and output files are one chat batch; anything else is joined. */
export function joinedFormat(kinds: ReadonlyArray<ObjectKind | null>): FormatName {
  const chat = kinds.every((k) => k === 'chat-request' || k === 'chat-output') && kinds.includes('chat-output') && kinds.includes('chat-request');
  return chat ? 'chat-batch' : 'multi-file';
}
