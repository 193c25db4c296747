import { candidateAnswerKey } from '../../engine/data/answers/answers.ts';
import { tokenizeChunk } from '../../engine/data/tokenize/tokenize.ts';
import { rankGroup } from '../../engine/metrics/rank.ts';
import type { BackendProfile } from '../../engine/backend/profile.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { Params } from '../../engine/model/params.ts';
import { scoreDistinct } from '../../engine/score/distinctInputs.ts';
import type { RankedCandidate } from '../protocols/models.ts';

/** Pasted candidates scored for Rerank: each text's ids as the model reads them and one more (`full`), and their energies. */
export interface RerankScores {
  full: Uint16Array[];
  ids: Uint16Array[];
  energies: Float32Array;
}

/**
 * Scores `texts` for `question` with exactly the training inputs: [CLS] + question + [SEP] + text, cut at
 * the model's maxLen. One id more tells an input that was cut from one exactly maxLen long.
 */
export async function scorePasted(cfg: ModelConfig, params: Params, question: string, texts: string[], profile: BackendProfile): Promise<RerankScores> {
  const chunk = tokenizeChunk({
    maxLen: cfg.maxLen + 1,
    clsId: cfg.clsId,
    sepId: cfg.sepId,
    questions: [question],
    groupSizes: [texts.length],
    genTexts: texts,
  });
  const full = texts.map((_, i) => chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));
  const ids = full.map((t) => t.subarray(0, cfg.maxLen));
  return { full, ids, energies: await scoreDistinct(cfg, params, ids, { profile }) };
}

/** The candidates in rank order (lowest energy first), as Rerank lists them. */
export function rankedCandidates(texts: string[], { full, ids, energies }: RerankScores): RankedCandidate[] {
  const rank = rankGroup(energies);
  return rank.order.map((i, r) => ({
    rank: r + 1,
    index: i,
    energy: energies[i],
    deltaToBest: rank.deltaToBest[i],
    share: rank.share[i],
    label: null,
    answer: candidateAnswerKey(null, texts[i]),
    text: texts[i],
    tokens: ids[i].length,
    truncated: full[i].length > ids[i].length,
  }));
}
