import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { expect, it } from 'vitest';
import { activeProfile, detectProfile } from '../backend/profile.ts';
import { PARITY_CHECKS } from './ops.ts';
import { FUSED_TOLERANCE, HOST_FUSED } from '../testing/parityVerdict.ts';

/** The parity checks of the ops whose kernels the host backends register (their specs: ops.ts). */
const CHECKS = Object.fromEntries(PARITY_CHECKS.filter(([key]) => HOST_FUSED.includes(key)).map(([key, check]) => [key, () => check(activeProfile())]));

it.each(['cpu', 'wasm'])('the host fused kernels on %s equal their compositions (value and every gradient) and are the profile’s', async (backend) => {
  expect(await tf.setBackend(backend)).toBe(true);
  expect(Object.keys(CHECKS)).toEqual(HOST_FUSED);
  const fused = detectProfile(backend).fused;
  for (const [op, check] of Object.entries(CHECKS)) {
    expect(fused[op as keyof typeof fused], op).toBe(true);
    const errors = await check();
    expect(errors, op).not.toBeNull();
    for (const [k, v] of Object.entries(errors!)) expect(v, `${op} ${k}`).toBeLessThan(FUSED_TOLERANCE);
  }
});
