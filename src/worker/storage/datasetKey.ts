import { INGEST_RULES_VERSION } from '../../engine/data/ingest.ts';

/** A training file's identity: "sha256:<64 lowercase hex>" of its raw bytes (as python/ computes it too). */
export type ContentHash = string;

const HASH_RE = /^sha256:[0-9a-f]{64}$/;

/** The identity of bytes held whole (WebCrypto's native digest); streamed files use engine/data/sha256.ts. */
export async function hashBytes(bytes: ArrayBuffer): Promise<ContentHash> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** What a stored tokenization depends on: the file's bytes, the tokenizer, the token cap and the reading rules. */
export function datasetKey(contentHash: ContentHash, tokenCap: number): string {
  return `${contentHash}:r50k_base:${tokenCap}:rules${INGEST_RULES_VERSION}`;
}

/** Whether a stored tokenization was made by today's tokenizer, cap and rules (older keys lack the rules' version). */
export function isCurrentDatasetKey(key: string, tokenCap: number): boolean {
  const hash = contentHashOfKey(key);
  return hash !== null && key === datasetKey(hash, tokenCap);
}

/** The file identity a storage key (or a run's recorded dataset key, of any version) starts with; null for none (''). */
export function contentHashOfKey(key: string): ContentHash | null {
  const hash = key.split(':', 2).join(':');
  return HASH_RE.test(hash) ? hash : null;
}
