import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { type BackendProfile, activeProfile } from '../../backend/profile.ts';
import { type AdamW, type AdamWVariant, EMBEDDING } from '../../model/adamw.ts';
import type { Params } from '../../model/params.ts';
import { stepVariant } from './step.ts';

describe('stepVariant: the one place a training step variant is chosen', () => {
  const withEmbedding: Params = new Map([[EMBEDDING, tf.variable(tf.zeros([4, 2]))]]);
  const without: Params = new Map([['head.3.bias', tf.variable(tf.zeros([1]))]]);
  const optimizer = (variant: AdamWVariant, flags: Partial<BackendProfile>) => ({ variant, profile: { ...activeProfile(), ...flags } }) as unknown as AdamW;

  it.each([
    ['lazyEmbedding', { sharedSteps: true }, withEmbedding, 'shared'],
    ['lazyEmbedding', { sharedSteps: false }, withEmbedding, 'lazyEmbedding'],
    ['flat', { replaySteps: true }, withEmbedding, 'replayed'],
    ['flat', { replaySteps: false }, withEmbedding, 'compactTable'],
    ['flat', { replaySteps: true }, without, 'device'],
    ['perTensor', { replaySteps: true, sharedSteps: true }, withEmbedding, 'device'],
  ] as const)('AdamW %s with %o → %#', (variant, flags, params, expected) => {
    expect(stepVariant(optimizer(variant, flags), params)).toBe(expected);
  });
});
