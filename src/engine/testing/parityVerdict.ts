import type { Check, CheckKind } from './fixtureParity.ts';
import { HOST_FUSED } from '../kernels/ops.ts';
import type { ParityErrors } from '../kernels/parity.ts';
import type { ReplayParity, StepWork } from './replayParity.ts';

/**
 * A backend's numeric report (parityReport.ts) and every way it misses its tolerances. The browser
 * parity test asserts there is none; the GPU kit prints them for a real GPU.
 */
export interface ParityReport {
  checks: Check[];
  kernels: {
    /** kernels/adamw/parity.ts's adamwKernelParity. */
    adamw: { p: number; m: number; v: number; moved: number; skipMoved: number };
    /** Each fused WebGPU kernel against its composition; null where it is not registered. */
    fused: Record<string, ParityErrors | null>;
    /** The device-drawn dropout mask's statistics (kernels/dropout/parity.ts); null off WebGPU. */
    dropoutMask: { rate: number; dropped: number; pairsDropped: number; seedsAgree: number } | null;
    /** WebGPU's replayed steps against the same steps through tfjs (replayParity.ts); null off WebGPU. */
    replay: ReplayParity | null;
    /** On WASM, per host kernel, whether its WebAssembly SIMD loop runs (kernels/<op>/wasm.ts); null elsewhere. */
    wasmSimd: Record<string, boolean> | null;
  };
}

/** Most GPU work a replayed step may make or send (a tfjs step makes a bind group, a uniform write and often a buffer per dispatch). */
export const REPLAY_LIMITS = { bindGroups: 5, buffers: 1, writes: 10, submits: 2 } as const;

/** The fused kernels the host backends (cpu, wasm) register too (kernels/<op>/host.ts), by their key in the report: from the ops' specs. */
export { HOST_FUSED };

/** Relative error of a fused kernel (value, each gradient) against its composition. */
export const FUSED_TOLERANCE = 1e-5;

/** The report's failures in words; empty when every check holds. `webgpu`: the backend has the fused kernels. */
export function parityFailures(report: ParityReport, webgpu: boolean, tolerance: Record<CheckKind, number>): string[] {
  const out: string[] = [];
  for (const [kind, tol] of Object.entries(tolerance) as Array<[CheckKind, number]>) {
    const mine = report.checks.filter((c) => c.kind === kind);
    if (mine.length === 0) out.push(`no ${kind} check ran`);
    for (const c of mine) if (!(c.error <= tol)) out.push(`${c.name}: ${c.error} > ${tol}`);
  }
  const { adamw, fused, dropoutMask: mask, replay, wasmSimd } = report.kernels;
  out.push(...replayFailures(replay, webgpu));
  for (const [kernel, runs] of Object.entries(wasmSimd ?? {})) if (!runs) out.push(`${kernel}: its WebAssembly SIMD loop does not run on WASM`);
  for (const key of ['p', 'm', 'v'] as const) if (!(adamw[key] < FUSED_TOLERANCE)) out.push(`fused AdamW ${key}: ${adamw[key]}`);
  if (!(adamw.moved > 1e-3)) out.push(`fused AdamW moved the parameters by only ${adamw.moved}`);
  // A step whose apply flag is false (its gradient NaN) leaves p, m and v exactly as they were.
  if (adamw.skipMoved !== 0) out.push(`fused AdamW's skipped step moved p, m or v by ${adamw.skipMoved}`);
  if (Object.keys(fused).length === 0) out.push('no fused kernel was checked');
  for (const [kernel, errors] of Object.entries(fused)) {
    // Every one exists on WebGPU; the host backends (cpu, wasm) have HOST_FUSED's and run the composition for the rest.
    const expected = webgpu || HOST_FUSED.includes(kernel);
    if (!expected) {
      if (errors !== null) out.push(`fused ${kernel} registered off WebGPU`);
    } else if (errors === null) out.push(`fused ${kernel} not registered on ${webgpu ? 'WebGPU' : 'the host backend'}`);
    else for (const [k, v] of Object.entries(errors)) if (!(v < FUSED_TOLERANCE)) out.push(`fused ${kernel} ${k}: ${v}`);
  }
  // WebGPU draws dropout masks on the device (a keyed hash per element): they must look like independent
  // draws at the rate asked for. Each bound is about 10 standard deviations of 2^20 draws.
  if (!webgpu) {
    if (mask !== null) out.push('a device-drawn dropout mask off WebGPU');
  } else if (mask === null) out.push('no device-drawn dropout mask on WebGPU');
  else {
    if (!(Math.abs(mask.dropped - mask.rate) < 0.003)) out.push(`dropout mask: ${mask.dropped} dropped at rate ${mask.rate}`);
    if (!(Math.abs(mask.pairsDropped - mask.rate ** 2) < 0.001)) out.push(`dropout mask: neighbours both dropped ${mask.pairsDropped}, not ${mask.rate ** 2}`);
    const independent = 1 - 2 * mask.rate * (1 - mask.rate);
    if (!(Math.abs(mask.seedsAgree - independent) < 0.004)) out.push(`dropout mask: two seeds agree on ${mask.seedsAgree}, not ${independent}`);
  }
  return out;
}

/**
 * Replayed steps compute exactly what the steps they replay compute (the same kernels on the same inputs
 * in the same order: bit for bit), most steps of the check are replayed, and a replayed step stays
 * within REPLAY_LIMITS.
 */
function replayFailures(r: ReplayParity | null, webgpu: boolean): string[] {
  if (!webgpu) return r === null ? [] : ['step replay off WebGPU'];
  if (r === null) return ['no replayed steps on WebGPU'];
  const out: string[] = [];
  for (const k of ['lossDiff', 'gradNormDiff', 'weightDiff', 'scoreDiff'] as const) if (r[k] !== 0) out.push(`replay: ${k} ${r[k]} (not bit-identical)`);
  if (!(r.replayed >= 15)) out.push(`replay: only ${r.replayed} of ${r.steps} steps replayed`);
  if (!(r.scoreReplays > 0)) out.push('replay: no scoring batch replayed');
  for (const [k, limit] of Object.entries(REPLAY_LIMITS) as Array<[keyof typeof REPLAY_LIMITS, number]>) {
    if (!(r.perReplay[k] <= limit)) out.push(`replay: ${r.perReplay[k]} ${k} in a replayed step (at most ${limit})`);
  }
  if (!(r.extraDispatches <= 0)) out.push(`replay: a replayed step ran ${r.extraDispatches} dispatches more than without replay`);
  return out;
}

/** The largest error per kind, one line each, and the kernels' figures: what a person reads. */
export function paritySummary(report: ParityReport): string[] {
  const worst = new Map<CheckKind, Check>();
  for (const c of report.checks) if (!worst.has(c.kind) || c.error > worst.get(c.kind)!.error) worst.set(c.kind, c);
  const lines = [...worst.values()].map((c) => `${c.kind.padEnd(14)} ${c.error.toExponential(2)}  (${c.name})`);
  const { adamw, fused, dropoutMask: mask, replay: r } = report.kernels;
  if (r) {
    const w = (x: StepWork) =>
      `${x.dispatches.toFixed(0)} dispatches, ${x.bindGroups.toFixed(1)} bind groups, ${x.buffers.toFixed(1)} buffers made, ${x.writes.toFixed(1)} writes, ${x.submits.toFixed(1)} submits`;
    lines.push(
      `replay: ${r.replayed} of ${r.steps} steps replayed (${r.recorded} recorded, ${r.shapes} shapes); largest |Δ| loss ${r.lossDiff}, grad norm ${r.gradNormDiff}, weights ${r.weightDiff}, scores ${r.scoreDiff} (${r.scoreReplays} batches replayed)`,
    );
    lines.push(
      `replay: a replayed step at most ${w(r.perReplay)} (${r.extraDispatches} dispatches beyond the same step without replay); a step without replay ${w(r.perPlain)} on average`,
    );
  }
  lines.push(`fused AdamW vs composition: p ${adamw.p.toExponential(2)}, m ${adamw.m.toExponential(2)}, v ${adamw.v.toExponential(2)}`);
  for (const [kernel, errors] of Object.entries(fused)) {
    lines.push(
      `fused ${kernel} vs composition: ${
        errors
          ? Object.entries(errors)
              .map(([k, v]) => `${k} ${v.toExponential(2)}`)
              .join(', ')
          : 'not registered'
      }`,
    );
  }
  if (report.kernels.wasmSimd)
    lines.push(
      `WebAssembly SIMD loops: ${Object.entries(report.kernels.wasmSimd)
        .map(([k, on]) => `${k} ${on ? 'on' : 'OFF'}`)
        .join(', ')}`,
    );
  if (mask)
    lines.push(
      `dropout mask at rate ${mask.rate}: dropped ${mask.dropped.toFixed(4)}, neighbours both dropped ${mask.pairsDropped.toFixed(4)}, two seeds agree ${mask.seedsAgree.toFixed(4)}`,
    );
  return lines;
}
