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
    ];
    for (const [what, spoil, message] of cases) {
      const r = passing();
      spoil(r);
      const failures = parityFailures(r, true, WEBGPU_TOLERANCE);
      expect(failures, what).toHaveLength(1);
      expect(failures[0], what).toMatch(message);
    }
  });

  it('wants no fused kernels and no device mask off WebGPU', () => {
    const r = passing();
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual(['fused gelu registered off WebGPU', 'fused dropout registered off WebGPU', 'a device-drawn dropout mask off WebGPU']);
    r.kernels.fused = { gelu: null, dropout: null };
    r.kernels.dropoutMask = null;
    expect(parityFailures(r, false, WEBGPU_TOLERANCE)).toEqual([]);
  });
});
