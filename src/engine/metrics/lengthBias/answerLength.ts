/**
 * An answer's length in tokens, for the length check (lengthBias.ts): the answer text's tokens in the
 * candidate's stored input ([CLS] question [SEP] answer, tokenized once up to the data's 4096-id cap,
 * worker/data/dataLoader.ts), so before the model's own maxLen cuts it; an answer longer than the cap leaves
 * counts what the cap keeps. The SEP is the first separator id after the CLS: a question never holds that
 * id (texts are encoded as ordinary text, tokenize.ts). python/eorm/metrics/length_bias.py counts the same.
 */
import type { TrainingView } from '../../data/types.ts';

/** Answer tokens of candidates start .. start+n−1 of the view; 0 when the question fills the input. */
export function answerTokens(view: TrainingView, start: number, n: number, sepId: number): Uint32Array {
  const { tokens, offsets } = view.tokens;
  const out = new Uint32Array(n);
  for (let c = 0; c < n; c++) {
    const from = offsets[start + c];
    const to = offsets[start + c + 1];
    let sep = from + 1;
    while (sep < to && tokens[sep] !== sepId) sep++;
    out[c] = sep < to ? to - sep - 1 : 0;
  }
  return out;
}
