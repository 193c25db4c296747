/**
 * GPT-2 BPE model inputs: ids = [CLS] + bpe(question) + [SEP] + bpe(gen_text), right-truncated to
 * maxLen ids in total (the reference cuts to maxLen−1 and then prepends CLS: the same ids). Texts are
 * encoded only as far as maxLen needs (boundedBpe.ts), so a huge candidate costs no more than a cut one.
 * A chunk is a run of whole groups, so work splits across workers by group range and the merged
 * result does not depend on how it was split.
 */
import { encodeBounded } from './boundedBpe.ts';
import type { CandidateText, Group, TokenizedSet } from '../types.ts';

export interface TokenizeSettings {
  maxLen: number;
  clsId: number;
  sepId: number;
}

/** A run of whole groups to tokenize; plain strings and numbers, so it can be posted to a worker. */
export interface TokenizeJob extends TokenizeSettings {
  /** One per group. */
  questions: string[];
  /** Candidates per group. */
  groupSizes: number[];
  /** One per candidate, group after group. */
  genTexts: string[];
}

/** The job for a run of whole groups. */
export function tokenizeJob(groups: ReadonlyArray<Group<CandidateText>>, settings: TokenizeSettings): TokenizeJob {
  return {
    maxLen: settings.maxLen,
    clsId: settings.clsId,
    sepId: settings.sepId,
    questions: groups.map((g) => g.question),
    groupSizes: groups.map((g) => g.candidates.length),
    genTexts: groups.flatMap((g) => g.candidates.map((c) => c.genText)),
  };
}

/** Like TokenizedSet, for one job; offsets start at 0. */
export interface TokenizedChunk {
  tokens: Uint16Array;
  offsets: Uint32Array;
  truncated: number;
}

/**
 * Texts are encoded as if inputs of this many ids were kept, whatever maxLen is asked (the data's
 * 4096-id cap, plus the one more id Rerank asks for): a candidate's ids are then the same prefix for
 * every maxLen up to it, in training, in Rerank and in python/ (tokenize.py keeps the same bound).
 */
export const ENCODED_IDS = 4097;

/** BPE ids of `text`, every character as ordinary text: `<|endoftext|>` typed by a user is 7 plain tokens, never the special id. */
export function encodeOrdinary(text: string): number[] {
  return encodeBounded(text, Infinity);
}

function checkSettings(s: TokenizeSettings): void {
  if (!Number.isInteger(s.maxLen) || s.maxLen < 2) throw new Error(`maxLen must be an integer ≥ 2 (got ${s.maxLen})`);
  for (const id of [s.clsId, s.sepId]) {
    if (!Number.isInteger(id) || id < 0 || id > 0xffff) throw new Error(`CLS/SEP id ${id} does not fit the 16-bit token buffer`);
  }
}

export function tokenizeChunk(job: TokenizeJob): TokenizedChunk {
  checkSettings(job);
  const covered = job.groupSizes.reduce((n, k) => n + k, 0);
  if (covered !== job.genTexts.length || job.groupSizes.length !== job.questions.length) {
    throw new Error(
      `job mismatch: ${job.questions.length} questions, ${job.groupSizes.length} group sizes covering ${covered} candidates, ${job.genTexts.length} texts`,
    );
  }
  const { maxLen, clsId, sepId } = job;
  const offsets = new Uint32Array(job.genTexts.length + 1);
  // Start near 1 token per 4 characters (typical for English BPE) and grow by doubling.
  let tokens = new Uint16Array(Math.max(1024, job.genTexts.reduce((n, t) => n + t.length, 0) >> 2));
  let used = 0;
  let truncated = 0;
  let c = 0;

  const push = (id: number, end: number) => {
    if (used < end) tokens[used++] = id;
  };
  const pushAll = (ids: number[], end: number) => {
    const n = Math.min(ids.length, end - used);
    for (let i = 0; i < n; i++) tokens[used++] = ids[i];
  };

  for (let g = 0; g < job.questions.length; g++) {
    // Each is encoded only until it overflows what is left of the bound: the lengths still tell whether a candidate is cut.
    const keep = Math.max(maxLen, ENCODED_IDS);
    const q = encodeBounded(job.questions[g], keep - 2);
    for (let k = 0; k < job.groupSizes[g]; k++, c++) {
      const t = q.length > keep - 2 ? [] : encodeBounded(job.genTexts[c], keep - 2 - q.length);
      const full = 2 + q.length + t.length;
      if (full > maxLen) truncated++;
      const end = used + Math.min(full, maxLen);
      if (end > tokens.length) {
        const grown = new Uint16Array(Math.max(end, tokens.length * 2));
        grown.set(tokens.subarray(0, used));
        tokens = grown;
      }
      push(clsId, end);
      pushAll(q, end);
      push(sepId, end);
      pushAll(t, end);
      offsets[c + 1] = used;
    }
  }
  // An exact-size copy: its buffer is what gets transferred, without the spare capacity.
  return { tokens: tokens.slice(0, used), offsets, truncated };
}

/** Concatenates chunks (in group order) into one TokenizedSet. */
export function mergeChunks(chunks: readonly TokenizedChunk[], maxLen: number): TokenizedSet {
  const nTokens = chunks.reduce((n, ch) => n + ch.tokens.length, 0);
  const nCandidates = chunks.reduce((n, ch) => n + ch.offsets.length - 1, 0);
  const tokens = new Uint16Array(nTokens);
  const offsets = new Uint32Array(nCandidates + 1);
  let t = 0;
  let c = 0;
  let truncated = 0;
  for (const ch of chunks) {
    tokens.set(ch.tokens, t);
    for (let i = 1; i < ch.offsets.length; i++) offsets[c + i] = t + ch.offsets[i];
    t += ch.tokens.length;
    c += ch.offsets.length - 1;
    truncated += ch.truncated;
  }
  return { maxLen, tokens, offsets, truncated };
}
