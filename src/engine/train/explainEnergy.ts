/**
 * "Why this energy?": one candidate's energy attributed to the pieces of its text (model/saliency.ts on
 * the input tokenize.ts builds, data/tokenPieces.ts for the text of each token), ready to show.
 */
import { type InputPart, tokenPieces } from '../data/tokenPieces.ts';
import { tokenizeChunk } from '../data/tokenize.ts';
import type { ModelConfig } from '../model/config.ts';
import { tokenSaliency } from '../model/saliency.ts';
import type { ParamTensors } from '../model/transebm.ts';

export interface SaliencyPiece {
  text: string;
  part: InputPart;
  /** Sum of its tokens' gradient × input: > 0 raises the energy (counts against the answer), < 0 lowers it. */
  score: number;
  /** score / `scale`, clipped to [−1, 1]: how strongly to shade it. */
  shade: number;
  /** How many tokens it covers (more than 1 when a character is split over tokens). */
  tokens: number;
}

export interface CandidateSaliency {
  energy: number;
  pieces: SaliencyPiece[];
  /** The largest |score| of a question or answer piece ([CLS] and [SEP] are left out: CLS, the token the energy is read at, can dwarf the text). */
  scale: number;
  /** Tokens the model read, and whether the input was cut at maxLen (the rest of the answer is not shown). */
  tokens: number;
  truncated: boolean;
}

/** The input exactly as training and Rerank build it: [CLS] + question + [SEP] + text, cut at maxLen. */
function modelInput(cfg: ModelConfig, question: string, text: string): { ids: Uint16Array; questionTokens: number; truncated: boolean } {
  // One id more than maxLen tells an input that was cut from one exactly maxLen long.
  const encode = (genText: string) => tokenizeChunk({ maxLen: cfg.maxLen + 1, clsId: cfg.clsId, sepId: cfg.sepId, questions: [question], groupSizes: [1], genTexts: [genText] }).tokens;
  const full = encode(text);
  // [CLS] question [SEP] alone; when that is cut too, every position after CLS is question.
  const questionTokens = encode('').length - 2;
  return { ids: full.subarray(0, cfg.maxLen), questionTokens, truncated: full.length > cfg.maxLen };
}

export async function explainCandidate(cfg: ModelConfig, params: ParamTensors, question: string, text: string): Promise<CandidateSaliency> {
  const { ids, questionTokens, truncated } = modelInput(cfg, question, text);
  const { energy, scores } = await tokenSaliency(cfg, params, ids);
  const pieces = tokenPieces(ids, questionTokens).map(({ text: pieceText, part, start, end }) => {
    let score = 0;
    for (let t = start; t < end; t++) score += scores[t];
    return { text: pieceText, part, score, shade: 0, tokens: end - start };
  });
  const scale = pieces.reduce((m, p) => (p.part === 'question' || p.part === 'answer' ? Math.max(m, Math.abs(p.score)) : m), 0);
  for (const p of pieces) p.shade = scale > 0 ? Math.max(-1, Math.min(1, p.score / scale)) : 0;
  return { energy, pieces, scale, tokens: ids.length, truncated };
}
