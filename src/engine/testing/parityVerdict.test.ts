import { describe, expect, it } from 'vitest';
import type { CheckKind } from './fixtureParity.ts';
import { type ParityReport, parityFailures } from './parityVerdict.ts';
import { WEBGPU_TOLERANCE } from './tolerances.ts';

const kinds = Object.keys(WEBGPU_TOLERANCE) as CheckKind[];

/** A WebGPU report in which everything holds. */
function passing(): ParityReport {
  return {
    checks: kinds.map((kind) => ({ name: `${kind} check`, kind, error: WEBGPU_TOLERANCE[kind] / 2 })),
    kernels: {
      adamw: { p: 1e-7, m: 1e-7, v: 1e-7, moved: 0.01, skipMoved: 0 },
      fused: { gelu: { value: 1e-7, dx: 2e-7 }, dropout: { value: 0, dx: 0, replay: 0 } },
      dropoutMask: { rate: 0.1, dropped: 0.1001, pairsDropped: 0.0099, seedsAgree: 0.8202 },
      replay: {
        steps: 50,
        replayed: 30,
        recorded: 20,
        shapes: 8,
        lossDiff: 0,
        gradNormDiff: 0,
        weightDiff: 0,
        scoreDiff: 0,
        scoreReplays: 4,
        perReplay: { dispatches: 140, bindGroups: 0, buffers: 0, writes: 1, submits: 1 },
        perPlain: { dispatches: 140, bindGroups: 140, buffers: 40, writes: 140, submits: 3 },
        extraDispatches: 0,
      },
      wasmSimd: null,
    },
  };
}

describe('parityFailures', () => {
  it('finds nothing in a report that holds, and names each way one does not', () => {
    expect(parityFailures(passing(), true, WEBGPU_TOLERANCE)).toEqual([]);
    const cases: Array<[string, (r: ParityReport) => void, RegExp]> = [
      ['a check over its tolerance', (r) => (r.checks[0].error = 1), /energy check: 1 > 0.0001/],
      ['a NaN error', (r) => (r.checks[1].error = Number.NaN), /loss check: NaN/],
      ['a kind that never ran', (r) => (r.checks = r.checks.filter((c) => c.kind !== 'grad')), /no grad check ran/],
      ['fused AdamW off', (r) => (r.kernels.adamw.v = 1e-3), /fused AdamW v/],
      ['a skipped step that moved', (r) => (r.kernels.adamw.skipMoved = 1e-9), /skipped step moved/],
      ['a fused kernel off', (r) => (r.kernels.fused.gelu!.dx = 2e-5), /fused gelu dx: 0.00002/],
      ['a fused kernel missing on WebGPU', (r) => (r.kernels.fused.gelu = null), /fused gelu not registered on WebGPU/],
      ['a biased mask', (r) => (r.kernels.dropoutMask!.dropped = 0.11), /0.11 dropped at rate 0.1/],
      ['correlated neighbours', (r) => (r.kernels.dropoutMask!.pairsDropped = 0.02), /neighbours both dropped 0.02/],
      ['seeds that agree too often', (r) => (r.kernels.dropoutMask!.seedsAgree = 0.9), /two seeds agree on 0.9/],
      ['a replayed loss that differs in the last bit', (r) => (r.kernels.replay!.lossDiff = 6e-8), /replay: lossDiff 6e-8 \(not bit-identical\)/],
      ['replayed weights that differ', (r) => (r.kernels.replay!.weightDiff = 1e-9), /replay: weightDiff/],
      ['replayed scores that differ', (r) => (r.kernels.replay!.scoreDiff = 1e-7), /replay: scoreDiff/],
      ['too few steps replayed', (r) => (r.kernels.replay!.replayed = 3), /only 3 of 50 steps replayed/],
      ['no scoring batch replayed', (r) => (r.kernels.replay!.scoreReplays = 0), /no scoring batch replayed/],
      ['a replayed step that makes bind groups', (r) => (r.kernels.replay!.perReplay.bindGroups = 140), /140 bindGroups in a replayed step \(at most 5\)/],
      ['a replayed step that writes per dispatch', (r) => (r.kernels.replay!.perReplay.writes = 11), /11 writes in a replayed step/],
      ['a replayed step that submits often', (r) => (r.kernels.replay!.perReplay.submits = 3), /3 submits/],
      ['a replayed step that makes buffers', (r) => (r.kernels.replay!.perReplay.buffers = 2), /2 buffers/],
      ['no replay on WebGPU', (r) => (r.kernels.replay = null), /no replayed steps on WebGPU/],
      ['a replayed step with more work than its own', (r) => (r.kernels.replay!.extraDispatches = 3), /ran 3 dispatches more/],
      ['a SIMD loop that does not run', (r) => (r.kernels.wasmSimd = { dropout: true, gelu: false }), /gelu: its WebAssembly SIMD loop does not run on WASM/],
    ];
    for (const [what, spoil, message] of cases) {
      const r = passing();
      spoil(r);
      const failures = parityFailures(r, true, WEBGPU_TOLERANCE);
      expect(failures, what).toHaveLength(1);
      expect(failures[0], what).toMatch(message);
    }
  });

  it('off WebGPU wants the host fused kernels (within tolerance) and no other, no device mask and no replay', () => {
    const r = passing();
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual([
      'step replay off WebGPU',
      'fused dropout registered off WebGPU',
      'a device-drawn dropout mask off WebGPU',
    ]);
    r.kernels.fused = { gelu: { value: 1e-7, dx: 2e-7 }, dropout: null };
    r.kernels.dropoutMask = null;
    r.kernels.replay = null;
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual([]);
    r.kernels.fused.gelu!.dx = 2e-5;
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual(['fused gelu dx: 0.00002']);
    r.kernels.fused.gelu = null;
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual(['fused gelu not registered on the host backend']);
  });
});
