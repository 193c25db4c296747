/** GPT-2 / r50k_base, the tokenizer's vocabulary: `<|endoftext|>` doubles as CLS, SEP and PAD, inserted as ids. */
export const GPT2_EOT = 50256;
export const GPT2_VOCAB = 50257;
