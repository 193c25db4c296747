/**
 * Module Web Worker: tokenizes one chunk of groups per request and transfers the token buffers back.
 * Start it with `new Worker(new URL('./tokenize.worker.ts', import.meta.url), { type: 'module' })`
 * and hand the workers to `createWorkerPool`.
 */
import { answerTokenizeRequest } from '../../engine/data/tokenize/tokenizePool.ts';
import type { TokenizeRequest } from '../../engine/data/tokenize/tokenizeProtocol.ts';

self.addEventListener('message', (event: MessageEvent<TokenizeRequest>) => {
  const { reply, transfer } = answerTokenizeRequest(event.data);
  self.postMessage(reply, { transfer });
});
