/**
 * The built-in sample dataset shipped in `public/` (GSM8K test questions, 4 GPT-3 solutions each;
 * MIT, see the license file). Paths are relative to the app's base URL.
 */
export const SAMPLE_DATASET_PATH = 'sample/gsm8k_gpt3_openai_4cand.jsonl';
export const SAMPLE_LICENSE_PATH = 'sample/LICENSE-gsm8k.txt';
