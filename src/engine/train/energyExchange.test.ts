import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ENGINE, EnergyExchange, PEER } from './energyExchange.ts';

// The other side on a real thread: it waits for the engine's step, answers with its energies doubled,
// then publishes step 2 late.
const PEER_SCRIPT = `
const { workerData, parentPort } = require('node:worker_threads');
const flags = new Int32Array(workerData, 0, 2);
const values = new Float32Array(workerData, 8);
while (Atomics.load(flags, 0) < 1) Atomics.wait(flags, 0, 0, 1000);
values.set([values[0] * 2, values[1] * 2], 2);
Atomics.store(flags, 1, 1);
Atomics.notify(flags, 1);
setTimeout(() => { Atomics.store(flags, 1, 3); Atomics.notify(flags, 1); parentPort.postMessage('done'); }, 300);
`;

describe('EnergyExchange', () => {
  it('hands energies across threads mid-computation, and tells a late or a past step', async () => {
    const exchange = EnergyExchange.create(8)!;
    const peer = new Worker(PEER_SCRIPT, { eval: true, workerData: exchange.buffer });
    try {
      exchange.publish(ENGINE, 1, 0, [1.5, -2]);
      expect(exchange.wait(PEER, 1, 5_000)).toBe('ready');
      expect(Array.from(exchange.read(2, 2))).toEqual([3, -4]);
      // Step 2 never comes within 50 ms; the peer then jumps to step 3: step 2 was given up.
      expect(exchange.wait(PEER, 2, 50)).toBe('late');
      await new Promise((resolve) => peer.once('message', resolve));
      expect(exchange.wait(PEER, 2, 50)).toBe('past');
    } finally {
      await peer.terminate();
    }
  });
});
