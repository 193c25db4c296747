import * as tf from '@tensorflow/tfjs';
import { activeProfile } from '../backend/profile.ts';
import { internals } from '../kernels/webgpu/backendInternals.ts';
import { type HalfProductCase, halfMatMulParity } from '../kernels/halfMatMul/parity.ts';
import { lossScaleKernelParity } from '../kernels/lossScale/parity.ts';
import { halfPrecisionChoice, webgpuDeviceFeatures } from '../precision/choice.ts';
import { type HalfStepParity, halfStepParity } from './halfStepParity.ts';

/** Half precision's checks on the active WebGPU device (the test page on SwiftShader, the GPU kit on a GPU). */
export interface HalfPrecisionReport {
  deviceFeatures: string[];
  /** What the backend profile chose, and why. */
  profileHalf: boolean;
  reason: string;
  /** The product kernel in f32 against tf.matMul (worst error in units of the f16 bound: far below 1). */
  f32Kernel: HalfProductCase[];
  /** The same in f16 where the device has shader-f16 (at most 1), else null. */
  f16Kernel: HalfProductCase[] | null;
  lossScale: { steps: number; mismatches: string[] };
  step: HalfStepParity | null;
  /** The device's first validation error during the checks (a shader that does not compile), else null: a kernel that never ran leaves stale buffers, which no figure above would show. */
  gpuError: string | null;
}

export async function halfPrecisionReport(): Promise<HalfPrecisionReport> {
  const features = webgpuDeviceFeatures();
  const choice = halfPrecisionChoice('webgpu', features);
  const device = internals(tf.backend()).device;
  device.pushErrorScope('validation');
  const report = {
    deviceFeatures: [...(features ?? [])].sort(),
    profileHalf: activeProfile().halfPrecision,
    reason: choice.reason,
    f32Kernel: await halfMatMulParity(false),
    f16Kernel: choice.half ? await halfMatMulParity(true) : null,
    lossScale: await lossScaleKernelParity(),
    step: await halfStepParity(),
  };
  const error = await device.popErrorScope();
  return { ...report, gpuError: error ? error.message : null };
}

/** Tolerances of the half-precision step against float32's (8 steps of a small model): f32 elements float32's rounding; f16 as the host emulation's bounds (precision/halfStep.test.ts). */
export const HALF_STEP_TOLERANCE = { f32: { loss: 1e-5, gradNorm: 1e-4 }, f16: { loss: 2e-3, gradNorm: 2e-2 } } as const;

/** Every check of `r` that failed, in words; empty when all hold. */
export function halfReportFailures(r: HalfPrecisionReport): string[] {
  const out: string[] = [];
  if (r.gpuError) out.push(`the device reported: ${r.gpuError}`);
  for (const c of r.f32Kernel)
    if (!(c.worst < 1e-3)) out.push(`product kernel in f32, ${c.shape}: ${c.worst.toExponential(2)} of the f16 bound (at most 1e-3)`);
  for (const c of r.f16Kernel ?? []) if (!(c.worst <= 1)) out.push(`product kernel in f16, ${c.shape}: ${c.worst.toFixed(2)} × the f16 bound`);
  for (const m of r.lossScale.mismatches) out.push(`loss-scale kernel: ${m}`);
  const s = r.step;
  if (s) {
    const tol = HALF_STEP_TOLERANCE[s.element];
    for (const [what, x] of [
      ['replayed', s],
      ['through tfjs', s.unreplayed],
    ] as const) {
      if (!(x.lossRel <= tol.loss)) out.push(`half-precision steps ${what}: loss ${x.lossRel.toExponential(2)} from float32's (at most ${tol.loss})`);
      if (!(x.gradNormRel <= tol.gradNorm))
        out.push(`half-precision steps ${what}: gradient norm ${x.gradNormRel.toExponential(2)} from float32's (at most ${tol.gradNorm})`);
    }
    for (const [what, x] of [
      ['replayed', s.scale],
      ['through tfjs', s.unreplayedScale],
    ] as const) {
      if (x.scale !== s.expectedScale.scale || x.cleanSteps !== s.expectedScale.cleanSteps)
        out.push(`loss scale ${what}: ${x.scale}, ${x.cleanSteps} clean; the AMP rule gives ${s.expectedScale.scale}, ${s.expectedScale.cleanSteps}`);
    }
    if (s.replayed < s.steps - 3) out.push(`only ${s.replayed} of ${s.steps} half-precision steps were replayed`);
  }
  return out;
}

/** The report in a few lines (the GPU kit prints them with the parity's). */
export function halfReportSummary(r: HalfPrecisionReport): string[] {
  const worst = (cs: HalfProductCase[]) => Math.max(...cs.map((c) => c.worst)).toExponential(2);
  const s = r.step;
  return [
    `half precision: ${r.profileHalf ? 'on' : 'off'} (${r.reason})`,
    `half precision: product kernel in f32 ${worst(r.f32Kernel)} of the f16 bound${r.f16Kernel ? `, in f16 ${worst(r.f16Kernel)} of it` : ''}; loss-scale kernel ${r.lossScale.steps - r.lossScale.mismatches.length}/${r.lossScale.steps} steps as the AMP rule`,
    ...(s
      ? [
          `half precision: ${s.steps} steps with ${s.element} products vs float32 (${s.replayed} replayed): loss ${s.lossRel.toExponential(2)}, gradient norm ${s.gradNormRel.toExponential(2)} relative; scale ${s.scale.scale} (rule: ${s.expectedScale.scale})`,
        ]
      : []),
  ];
}
