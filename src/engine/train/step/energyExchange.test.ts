import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ENGINE, EnergyExchange, PEER } from './energyExchange.ts';

// The other side on a real thread: it waits for the engine's step, answers with its energies doubled,
// then skips step 2 (publishes step 3) when told to.
const PEER_SCRIPT = `
const { workerData, parentPort } = require('node:worker_threads');
const flags = new Int32Array(workerData, 0, 2);
const values = new Float32Array(workerData, 8);
while (Atomics.load(flags, 0) < 1) Atomics.wait(flags, 0, 0, 1000);
values.set([values[0] * 2, values[1] * 2], 2);
Atomics.store(flags, 1, 1);
Atomics.notify(flags, 1);
parentPort.once('message', () => { Atomics.store(flags, 1, 3); Atomics.notify(flags, 1); parentPort.postMessage('done'); });
`;

describe('EnergyExchange', () => {
  it('hands energies across threads mid-computation, and tells a late or a past step', async () => {
    const exchange = EnergyExchange.create(8)!;
    const peer = new Worker(PEER_SCRIPT, { eval: true, workerData: exchange.buffer });
    try {
      exchange.publish(ENGINE, 1, 0, [1.5, -2]);
      expect(exchange.wait(PEER, 1, 5_000)).toBe('ready');
      expect(Array.from(exchange.read(2, 2))).toEqual([3, -4]);
      // Step 2 does not come (the peer publishes nothing until told): the wait times out.
      expect(exchange.wait(PEER, 2, 10)).toBe('late');
      // Told, the peer jumps to step 3: step 2 was given up.
      const done = new Promise((resolve) => peer.once('message', resolve));
      peer.postMessage('skip');
      await done;
      expect(exchange.wait(PEER, 2, 10)).toBe('past');
    } finally {
      await peer.terminate();
    }
  });
});
