import { type TokenizePool, createWorkerPool, inProcessPool } from '../../engine/data/tokenize/tokenizePool.ts';

/**
 * Tokenizer workers next to the engine worker: one per spare core (at most 4), started on first use
 * and kept. With a single core, tokenizing runs in the engine worker itself.
 */
export function lazyTokenizePool(size: () => number | undefined): () => TokenizePool {
  let pool: TokenizePool | null = null;
  return () => {
    if (pool) return pool;
    const n = size() ?? Math.min(4, Math.max(0, (navigator.hardwareConcurrency || 1) - 1));
    if (n === 0 || typeof Worker === 'undefined') {
      pool = inProcessPool();
    } else {
      const workers = Array.from({ length: n }, () => new Worker(new URL('./tokenize.worker.ts', import.meta.url), { type: 'module' }));
      pool = createWorkerPool(workers);
    }
    return pool;
  };
}
