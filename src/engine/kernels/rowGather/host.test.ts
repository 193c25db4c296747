import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.ts';
import { hostGatherRows as gatherTableRows } from './host.ts';

const rng = createRng(4);

describe('gatherTableRows equals tf.gather along axis 0', () => {
  for (const backend of ['cpu', 'wasm']) {
    it(`on ${backend}: any index shape, repeated rows, and a clear error for a row outside the table`, async () => {
      expect(await tf.setBackend(backend)).toBe(true);
      const table = tf.tensor2d(
        Float32Array.from({ length: 50 * 7 }, () => rng.next()),
        [50, 7],
      );
      const ids = tf.tensor2d(
        [
          [3, 49, 0],
          [3, 17, 3],
        ],
        [2, 3],
        'int32',
      );
      const got = gatherTableRows(table, ids);
      expect(got.shape).toEqual([2, 3, 7]);
      expect(Array.from(got.dataSync())).toEqual(Array.from(tf.gather(table, ids).dataSync()));
      expect(() => gatherTableRows(table, tf.tensor1d([1, 50], 'int32'))).toThrow(/row index 50 \(position 1\) is outside the table's 50 rows/);
    });
  }
});
