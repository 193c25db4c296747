/**
 * Which format a file is, from its content: a first non-blank `[` is a JSON array; otherwise its lines
 * are JSON objects whose keys say which reader takes them (the first object read decides, per file).
 */
import type { DataFormat } from '../types.ts';
import { isChatOutput, isChatRequest } from './chatBatch.ts';
import { isGrouped } from './grouped.ts';
import { isLmEval } from './lmEval.ts';

export type ObjectKind = 'candidates' | 'grouped' | 'lm-eval' | 'chat-request' | 'chat-output';
export type Layout = 'jsonl' | 'array';

export function objectKind(obj: Record<string, unknown>): ObjectKind {
  if (isChatOutput(obj)) return 'chat-output';
  if (isChatRequest(obj)) return 'chat-request';
  if (isLmEval(obj)) return 'lm-eval';
  if (Object.hasOwn(obj, 'gen_text') || Object.hasOwn(obj, 'generated_full_text')) return 'candidates';
  // Anything else is read as candidates, whose errors then say which field is missing.
  return isGrouped(obj) ? 'grouped' : 'candidates';
}

/** The layout from the first non-blank character (a BOM is not content). */
export function layoutOf(firstChar: string | null): Layout {
  return firstChar === '[' ? 'array' : 'jsonl';
}

/** One file's format as the panel names it. */
export function fileFormat(layout: Layout, kind: ObjectKind | null): DataFormat {
  if (kind === 'lm-eval') return 'lm-eval';
  if (layout === 'array') return 'json-array';
  if (kind === 'chat-output' || kind === 'chat-request') return 'chat-batch';
  return kind ?? 'candidates';
}

/** Several files: a chat batch's request and output files are one chat batch; anything else is joined. */
export function joinedFormat(kinds: ReadonlyArray<ObjectKind | null>): DataFormat {
  const chat = kinds.every((k) => k === 'chat-request' || k === 'chat-output') && kinds.includes('chat-output') && kinds.includes('chat-request');
  return chat ? 'chat-batch' : 'multi-file';
}
