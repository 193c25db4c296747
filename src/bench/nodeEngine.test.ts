import { describe, expect, it } from 'vitest';
import { PRESETS } from '../engine/train/settings.ts';
import { appRun, sampleSlice } from './appRun.ts';
import { nodeRuntime } from './nodeEngine.ts';

// The GPU kit's route (the engine in-process in Node) measured end to end. Without Dawn installed the
// probe finds no navigator.gpu, so the engine runs on the CPU backend: the host, the counters' window and
// a fresh engine per host are what is checked here; Dawn itself is the kit's part (src/bench/gpuKit/run.sh).
describe('the bench in-process in Node', () => {
  it('measures a window of whole steps, and each host starts as a fresh engine', async () => {
    const runtime = nodeRuntime();
    const spec = {
      requested: 'webgpu' as const,
      preset: 'mini',
      model: { ...PRESETS.tiny, dModel: 16, ffnDim: 32, maxLen: 64 },
      seconds: 1,
      slice: sampleSlice(12),
    };
    const first = await appRun(runtime, spec);
    expect(first.info.backend).toBe('cpu');
    expect(first.info.reason).toMatch(/WebGPU was asked for but .*navigator\.gpu is missing/);
    const c = first.run.counters;
    expect(c.windowSteps).toBeGreaterThanOrEqual(2);
    expect(first.run.train.window.steps).toBe(c.windowSteps);
    expect(first.run.train.window.tokensPerSec).toBeGreaterThan(0);
    expect(c.kernelsPerStep).toBeGreaterThan(100); // a Transformer step is hundreds of tfjs kernels
    expect(c.dispatchesPerStep).toBe(0); // no GPU
    // The engine thread's time in kernels is part of each step's time (on the CPU backend, most of it).
    expect(c.kernelMsPerStep).toBeGreaterThan(0);
    expect(c.kernelMsPerStep).toBeLessThanOrEqual(1000 / first.run.train.window.stepsPerSec);
    expect(first.run.score.candidates).toBeGreaterThan(0);

    // A second host: the first one's tensors are gone and its counters do not carry over.
    const second = await appRun(runtime, spec);
    expect(second.run.counters.liveTensorBytes).toBe(c.liveTensorBytes);
    expect(second.run.counters.kernelsPerStep).toBeCloseTo(c.kernelsPerStep, -1);
    expect(second.run.counters.pipelinesBeforeWindow).toBe(0);
  });
});
