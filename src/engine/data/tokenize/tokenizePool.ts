/**
 * Where tokenize jobs run. The engine only sees `TokenizePool`; the caller decides the pool's size
 * and kind: Web Workers in the browser, worker_threads or in-process in Node.
 */
import { tokenizeChunk, type TokenizedChunk, type TokenizeJob } from './tokenize.ts';
import type { TokenizeReply, TokenizeRequest } from './tokenizeProtocol.ts';

export interface TokenizePool {
  /** How many jobs can run at once. */
  readonly size: number;
  run(job: TokenizeJob): Promise<TokenizedChunk>;
}

/** Runs jobs on the calling thread, one at a time (tests, or when workers are unavailable). */
export function inProcessPool(): TokenizePool {
  return { size: 1, run: async (job) => tokenizeChunk(job) };
}

/** The worker side: runs a request and says which buffers to transfer (not copy) back. */
export function answerTokenizeRequest(request: TokenizeRequest): { reply: TokenizeReply; transfer: ArrayBuffer[] } {
  try {
    const chunk = tokenizeChunk(request.job);
    return { reply: { id: request.id, ok: true, chunk }, transfer: [chunk.tokens.buffer as ArrayBuffer, chunk.offsets.buffer as ArrayBuffer] };
  } catch (e) {
    return { reply: { id: request.id, ok: false, error: e instanceof Error ? e.message : String(e) }, transfer: [] };
  }
}

/** What the pool needs of a worker; a browser `Worker` has this shape (Node's worker_threads needs a small adapter). */
export interface TokenizeWorker {
  postMessage(request: TokenizeRequest): void;
  addEventListener(type: 'message', listener: (event: { data: TokenizeReply }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
}

interface Pending {
  id: number;
  job: TokenizeJob;
  resolve: (chunk: TokenizedChunk) => void;
  reject: (error: Error) => void;
}

/** A pool over already-started workers, one job per worker at a time. The caller owns (and terminates) the workers. */
export function createWorkerPool(workers: readonly TokenizeWorker[]): TokenizePool {
  if (workers.length === 0) throw new Error('a worker pool needs at least one worker');
  const idle = [...workers];
  const queue: Pending[] = [];
  const busy = new Map<TokenizeWorker, Pending>();
  let nextId = 0;
  let failure: Error | null = null;

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const worker = idle.pop()!;
      const job = queue.shift()!;
      busy.set(worker, job);
      worker.postMessage({ id: job.id, job: job.job });
    }
  };

  for (const worker of workers) {
    worker.addEventListener('message', ({ data }) => {
      const pending = busy.get(worker);
      if (pending === undefined || pending.id !== data.id) return;
      busy.delete(worker);
      idle.push(worker);
      if (data.ok) pending.resolve(data.chunk);
      else pending.reject(new Error(data.error));
      pump();
    });
    // An error outside a job (e.g. the worker script failed to load) leaves the worker unusable;
    // failing everything now beats waiting forever for replies that will not come.
    worker.addEventListener('error', (event) => {
      failure = new Error(`tokenizer worker failed: ${event.message ?? 'unknown error'}`);
      for (const p of [...busy.values(), ...queue.splice(0)]) p.reject(failure);
      busy.clear();
    });
  }

  return {
    size: workers.length,
    run(job) {
      if (failure !== null) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        queue.push({ id: nextId++, job, resolve, reject });
        pump();
      });
    },
  };
}
