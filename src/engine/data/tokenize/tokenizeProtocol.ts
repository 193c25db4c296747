/**
 * What a tokenizer worker (src/worker/data/tokenize.worker.ts, or a worker_thread in Node) and its pool
 * (tokenizePool.ts) send each other. Types only.
 */
import type { TokenizedChunk, TokenizeJob } from './tokenize.ts';

/** Message to a tokenizer worker. */
export interface TokenizeRequest {
  id: number;
  job: TokenizeJob;
}

/** A worker's answer to the request with the same id. */
export type TokenizeReply = { id: number; ok: true; chunk: TokenizedChunk } | { id: number; ok: false; error: string };
