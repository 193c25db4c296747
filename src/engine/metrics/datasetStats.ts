/**
 * Figures for the dataset panel, as plain data. Token lengths are separate because tokenization
 * finishes well after parsing: the panel can show everything else first.
 */
import { majorityVoteScore } from './vote.ts';
import { answerStats, type AnswerStats } from '../data/answers/answerStats.ts';
import type { Dataset, TokenizedSet } from '../data/types.ts';

export interface DatasetStats {
  lines: { read: number; accepted: number; rejected: number; blank: number; invalidUtf8: number };
  groups: number;
  candidates: number;
  candidatesPerGroup: { min: number; median: number; max: number; histogram: Array<{ size: number; groups: number }> };
  /** Share of candidates labelled correct. */
  shareCorrect: number;
  groupsBothLabels: number;
  groupsAllCorrect: number;
  groupsAllWrong: number;
  /** Share of groups with at least one correct candidate (best possible Best-of-N). */
  oracle: number;
  /** Share of groups whose first candidate is correct. */
  firstCandidate: number;
  /**
   * Majority vote's accuracy, scored as every evaluation scores it (metrics/vote.ts majorityVoteScore): tied
   * answers as the expected accuracy of a random pick among them, an answer as the share of its candidates
   * labelled correct; a group where no candidate has an answer counts as wrong.
   */
  majorityVote: number;
  /** Candidates with a final answer (given or extracted); majority vote needs them. */
  candidatesWithAnswer: number;
  /** Answers extracted from the texts, answer fields against them, labels against gold answers. */
  answers: AnswerStats;
}

function median(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function datasetStats(dataset: Dataset): DatasetStats {
  const r = dataset.report;
  const sizes = new Uint32Array(dataset.groups.length);
  const bySize = new Map<number, number>();
  let correct = 0;
  let both = 0;
  let allCorrect = 0;
  let allWrong = 0;
  let first = 0;
  let vote = 0;
  let withAnswer = 0;

  dataset.groups.forEach((g, i) => {
    const n = g.candidates.length;
    sizes[i] = n;
    bySize.set(n, (bySize.get(n) ?? 0) + 1);
    const pos = g.candidates.reduce((s, c) => s + c.label, 0);
    correct += pos;
    if (pos === n) allCorrect++;
    else if (pos === 0) allWrong++;
    else both++;
    first += g.candidates[0].label;
    const keys = g.candidates.map((c) => c.answerKey);
    withAnswer += keys.filter((k) => k !== null).length;
    vote += majorityVoteScore(
      keys,
      g.candidates.map((c) => c.label),
    );
  });

  const nGroups = dataset.groups.length;
  sizes.sort();
  return {
    lines: { read: r.linesRead, accepted: r.accepted, rejected: r.rejected, blank: r.blank, invalidUtf8: r.invalidUtf8Lines },
    groups: nGroups,
    candidates: dataset.candidateCount,
    candidatesPerGroup: {
      min: nGroups > 0 ? sizes[0] : 0,
      median: median(sizes),
      max: nGroups > 0 ? sizes[nGroups - 1] : 0,
      histogram: [...bySize].sort((a, b) => a[0] - b[0]).map(([size, groups]) => ({ size, groups })),
    },
    shareCorrect: correct / Math.max(1, dataset.candidateCount),
    groupsBothLabels: both,
    groupsAllCorrect: allCorrect,
    groupsAllWrong: allWrong,
    oracle: (both + allCorrect) / Math.max(1, nGroups),
    firstCandidate: first / Math.max(1, nGroups),
    majorityVote: vote / Math.max(1, nGroups),
    candidatesWithAnswer: withAnswer,
    answers: answerStats(dataset),
  };
}

export interface TokenLengthStats {
  /** For marking the cut-off on the histogram. */
  maxLen: number;
  truncated: number;
  min: number;
  median: number;
  max: number;
  mean: number;
  /** Bin i counts lengths in [edges[i], edges[i+1]); the last bin also holds maxLen itself. */
  histogram: { edges: number[]; counts: number[] };
}

/**
 * Lengths in ids, CLS included, as stored (cut at the tokenization cap `tokens.maxLen`), against the
 * model's `maxLen`: right truncation keeps a prefix, so a set tokenized once at the cap serves every
 * maxLen up to it. The histogram spans [0, max(maxLen, longest)] so the cut-off can be marked on it.
 */
export function tokenLengthStats(tokens: TokenizedSet, maxLen = tokens.maxLen, bins = 32): TokenLengthStats {
  if (maxLen > tokens.maxLen) throw new Error(`maxLen ${maxLen} exceeds the tokenization cap ${tokens.maxLen}`);
  const n = tokens.offsets.length - 1;
  const lengths = new Uint32Array(n);
  let over = 0;
  for (let i = 0; i < n; i++) {
    lengths[i] = tokens.offsets[i + 1] - tokens.offsets[i];
    if (lengths[i] > maxLen) over++;
  }
  lengths.sort();
  const longest = n > 0 ? lengths[n - 1] : 0;
  const span = Math.max(maxLen, longest);
  const width = Math.max(1, Math.ceil(span / bins));
  const nBins = Math.ceil(span / width);
  const edges = Array.from({ length: nBins + 1 }, (_, i) => Math.min(i * width, span));
  const counts = new Array<number>(nBins).fill(0);
  for (const len of lengths) counts[Math.min(nBins - 1, Math.floor(len / width))]++;
  return {
    maxLen,
    // At the cap itself only the tokenizer knows which candidates were cut (a length of exactly the cap may be whole).
    truncated: maxLen === tokens.maxLen ? tokens.truncated : over,
    min: n > 0 ? lengths[0] : 0,
    median: median(lengths),
    max: longest,
    mean: n > 0 ? tokens.tokens.length / n : 0,
    histogram: { edges, counts },
  };
}
