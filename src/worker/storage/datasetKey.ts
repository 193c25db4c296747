import { TOKEN_CAP } from '../dataLoader.ts';

/** What a stored tokenization depends on: the file's bytes, the tokenizer and the token cap. */
export async function datasetKey(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return `sha256:${hex}:r50k_base:${TOKEN_CAP}`;
}
