/**
 * GPT-2 BPE (r50k_base) that stops once a caller's cap is passed, so a candidate's cost is bounded
 * whatever its length. A run of one character class (dots, spaces, one letter…) is a single pre-token,
 * and gpt-tokenizer merges a pre-token in time quadratic in its length (and overflows the stack on
 * 300,000 spaces): long pre-tokens are merged here with a heap instead, giving the same ids.
 *
 * The rule (python/eorm/bpe.py applies the same one, so both sides give the same ids):
 * - pre-tokens are encoded in order until more than `limit` ids are out;
 * - a pre-token of at most LONG_PIECE_BYTES UTF-8 bytes is encoded whole (exact BPE);
 * - a longer one is encoded whole too, unless it must by itself pass the cap: its n bytes can only
 *   hold tokens made of the bytes it contains, at most m bytes long (m from the vocabulary), so it
 *   gives at least n/m ids; when n > need·m (need = limit + 1 − ids out) it is cut into CHUNK_BYTES
 *   slices, each encoded exactly, until more than `limit` ids are out.
 * So the ids equal tiktoken's everywhere except inside a pre-token within which the cap falls.
 * Model inputs always pass the same cap (tokenize.ts ENCODED_IDS), so they do not depend on maxLen.
 */
import bpeRanks from 'gpt-tokenizer/bpeRanks/r50k_base';
import { encode, encodeGenerator } from 'gpt-tokenizer/encoding/r50k_base';

export const LONG_PIECE_BYTES = 4096;
export const CHUNK_BYTES = 4096;

// GPT-2's split pattern, as gpt-tokenizer pre-tokenizes with it (its R50K_TOKEN_SPLIT_REGEX).
const SPLIT = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
// `<|endoftext|>` typed by a user is 7 plain tokens, never the special id (gpt-tokenizer's default options would throw on it).
const ORDINARY = { disallowedSpecial: new Set<string>() };
/** Texts and spans of short pieces up to this many chars are encoded whole by gpt-tokenizer; longer ones piece by piece, up to the cap. */
const SPAN_CHARS = 1 << 16;

const utf8 = new TextEncoder();

/**
 * Characters handed to gpt-tokenizer and bytes to mergeExact in this thread so far: merging is what a
 * candidate's cost follows (superlinear in a pre-token's length), so tests bound the work by this count.
 */
let merged = 0;
export const mergedSoFar = (): number => merged;

const whole = (text: string): number[] => {
  merged += text.length;
  return encode(text, ORDINARY);
};
const pieceByPiece = (text: string): Generator<number[]> => {
  merged += text.length;
  return encodeGenerator(text, ORDINARY);
};

interface Vocabulary {
  /** Token bytes as a latin-1 string (one char per byte) → rank (= id). */
  ranks: Map<string, number>;
  /** Longest token made only of the given bytes, per set of bytes (see maxTokenBytes). */
  longest: Map<string, number>;
}
let vocab: Vocabulary | null = null;

const ASCII = /^[\x00-\x7f]*$/;

/** Built once per thread, on the first long pre-token: an ASCII token (most of them) is its own latin-1 key. */
function vocabulary(): Vocabulary {
  if (vocab) return vocab;
  const ranks = new Map<string, number>();
  bpeRanks.forEach((value, rank) => {
    const key = typeof value !== 'string' ? String.fromCharCode(...value) : ASCII.test(value) ? value : latin1(utf8.encode(value));
    ranks.set(key, rank);
  });
  vocab = { ranks, longest: new Map() };
  return vocab;
}

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** The longest vocabulary token (in bytes) whose bytes all occur in `bytes`: no token of a BPE of `bytes` is longer. */
function maxTokenBytes(bytes: Uint8Array): number {
  const present = new Uint8Array(256);
  for (let i = 0; i < bytes.length; i++) present[bytes[i]] = 1;
  let signature = '';
  for (let b = 0; b < 256; b++) if (present[b]) signature += String.fromCharCode(b);
  const v = vocabulary();
  let m = v.longest.get(signature);
  if (m === undefined) {
    m = 1;
    for (const t of v.ranks.keys()) {
      if (t.length <= m) continue;
      let all = true;
      for (let i = 0; i < t.length && all; i++) all = present[t.charCodeAt(i)] === 1;
      if (all) m = t.length;
    }
    v.longest.set(signature, m);
  }
  return m;
}

const TWO_32 = 4294967296;

/**
 * Exact BPE of one pre-token (bytes as a latin-1 string): repeatedly merges the adjacent pair whose
 * merge has the lowest rank, the leftmost on ties (tiktoken's rule), with a heap: O(n log n).
 */
function mergeExact(s: string, out: number[]): void {
  const { ranks } = vocabulary();
  merged += s.length;
  const token = ranks.get(s);
  if (token !== undefined) {
    out.push(token);
    return;
  }
  const n = s.length;
  const end = new Int32Array(n);
  const prev = new Int32Array(n);
  // Rank of merging the part at i with the next; -1: none (or i is no longer a part's start).
  const pair = new Float64Array(n).fill(-1);
  const heap: number[] = [];
  const rankOf = (a: number, b: number) => ranks.get(s.slice(a, b)) ?? -1;
  for (let i = 0; i < n; i++) {
    end[i] = i + 1;
    prev[i] = i - 1;
    if (i + 1 < n) {
      pair[i] = rankOf(i, i + 2);
      if (pair[i] >= 0) heap.push(pair[i] * TWO_32 + i);
    }
  }
  heapify(heap);
  while (heap.length > 0) {
    const key = heapPop(heap);
    const r = Math.floor(key / TWO_32);
    const a = key - r * TWO_32;
    if (pair[a] !== r) continue; // stale: that pair was merged or changed since
    const b = end[a];
    end[a] = end[b];
    pair[b] = -1;
    if (end[a] < n) prev[end[a]] = a;
    pair[a] = end[a] < n ? rankOf(a, end[end[a]]) : -1;
    if (pair[a] >= 0) heapPush(heap, pair[a] * TWO_32 + a);
    if (a > 0) {
      const p = prev[a];
      pair[p] = rankOf(p, end[a]);
      if (pair[p] >= 0) heapPush(heap, pair[p] * TWO_32 + p);
    }
  }
  for (let i = 0; i < n; i = end[i]) out.push(ranks.get(s.slice(i, end[i]))!);
}

function heapify(h: number[]): void {
  for (let i = (h.length >> 1) - 1; i >= 0; i--) siftDown(h, i);
}

function heapPush(h: number[], v: number): void {
  let i = h.length;
  h.push(v);
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p] <= v) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = v;
}

function heapPop(h: number[]): number {
  const top = h[0];
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    siftDown(h, 0);
  }
  return top;
}

function siftDown(h: number[], i: number): void {
  const n = h.length;
  const v = h[i];
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1] < h[c]) c++;
    if (h[c] >= v) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = v;
}

/** A pre-token over LONG_PIECE_BYTES: whole, or (when it must pass the cap) slice by slice until it does. */
function encodeLongPiece(bytes: Uint8Array, limit: number, out: number[]): void {
  const need = limit + 1 - out.length;
  if (bytes.length <= need * maxTokenBytes(bytes)) {
    mergeExact(latin1(bytes), out);
    return;
  }
  // A run of one character repeats the same slice: merged once.
  let last = '';
  let lastIds: number[] = [];
  for (let at = 0; at < bytes.length && out.length <= limit; at += CHUNK_BYTES) {
    const slice = latin1(bytes.subarray(at, at + CHUNK_BYTES));
    if (slice !== last) {
      last = slice;
      lastIds = [];
      mergeExact(slice, lastIds);
    }
    for (const id of lastIds) out.push(id);
  }
}

// ASCII character classes of the split pattern: letter, number, whitespace, other; non-ASCII: unknown.
const UNKNOWN = 4;
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return /[A-Za-z]/.test(ch) ? 0 : /[0-9]/.test(ch) ? 1 : /\s/.test(ch) ? 2 : 3;
});
const MAX_SHORT_CHARS = Math.floor(LONG_PIECE_BYTES / 3);

/**
 * Whether some pre-token of `text` may be over LONG_PIECE_BYTES, in one cheap pass: a pre-token is a run
 * of one class (after at most one space), so none is when no run of characters that could share a class
 * (a non-ASCII one could share any) is longer than MAX_SHORT_CHARS − 1 (3 UTF-8 bytes per char at most).
 */
function mayHoldLongPiece(text: string): boolean {
  let run = 0;
  let prev = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const k = c < 128 ? ASCII_CLASS[c] : UNKNOWN;
    run = k === prev || k === UNKNOWN || prev === UNKNOWN ? run + 1 : 1;
    if (run >= MAX_SHORT_CHARS) return true;
    prev = k;
  }
  return false;
}

/**
 * BPE ids of `text` (every character ordinary text), stopping once more than `limit` ids are out: the
 * exact ids when there are at most `limit` of them; otherwise more than `limit` ids, exact up to the
 * pre-token within which the cap falls (see the rule above).
 */
export function encodeBounded(text: string, limit: number): number[] {
  // Too short to hold a long pre-token, and cheap whole.
  if (text.length * 3 <= LONG_PIECE_BYTES) return whole(text);
  if (!mayHoldLongPiece(text)) {
    if (text.length <= SPAN_CHARS) return whole(text);
    const out: number[] = [];
    for (const ids of pieceByPiece(text)) {
      for (const id of ids) out.push(id);
      if (out.length > limit) break;
    }
    return out;
  }
  const out: number[] = [];
  let spanStart = 0;
  // Short pieces go to gpt-tokenizer a span at a time: a span ends at a piece boundary, where the split is the same alone.
  const flush = (spanEnd: number) => {
    if (spanEnd > spanStart) {
      for (const ids of pieceByPiece(text.slice(spanStart, spanEnd))) {
        for (const id of ids) out.push(id);
        if (out.length > limit) break;
      }
    }
    spanStart = spanEnd;
  };
  for (const m of text.matchAll(SPLIT)) {
    const piece = m[0];
    const start = m.index;
    if (piece.length * 3 > LONG_PIECE_BYTES) {
      const bytes = utf8.encode(piece);
      if (bytes.length > LONG_PIECE_BYTES) {
        flush(start);
        if (out.length > limit) return out;
        encodeLongPiece(bytes, limit, out);
        if (out.length > limit) return out;
        spanStart = start + piece.length;
        continue;
      }
    }
    if (start + piece.length - spanStart >= SPAN_CHARS) {
      flush(start + piece.length);
      if (out.length > limit) return out;
    }
  }
  flush(text.length);
  return out;
}
