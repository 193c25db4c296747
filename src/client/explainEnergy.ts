/** "Why this energy?" for one candidate: the worker answers with a `saliency` event carrying the same id. */
import type { SaliencyTarget } from '../worker/protocols/models.ts';
import { send } from './engineConnection.ts';

let lastId = 0;

export function explainEnergy(view: SaliencyTarget['view'], index: number, question: string, text: string): void {
  send({ type: 'saliency', target: { view, index, id: ++lastId }, question, text });
}
