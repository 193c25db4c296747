import type { BackendInternals } from '../backendInternals.ts';
import type { ReplayArena } from './arena.ts';
import { type Capture, stageInputs } from './capture.ts';

/** GPU time of one kind of kernel in a replayed step: its dispatches run alone, `repeat` times. */
export interface KernelTime {
  kernel: string;
  dispatches: number;
  ms: number;
}

/**
 * Where a replayed step's GPU time goes (benchmarks only): the whole step's dispatches, then each
 * kernel's (by pipeline) on their own, each run `repeat` times in one submit and timed to the queue's
 * completion, on the inputs of the capture's last replay (kernels whose loops follow an input, such as
 * the row sum, need real ones). It runs the step's dispatches again, in-place updates of the weights
 * included: call it when the run's weights no longer matter (the bench profiles at the end of its
 * window, then stops). Null for a capture not yet replayed.
 */
export async function profileCapture(
  b: BackendInternals,
  cap: Capture,
  arena: ReplayArena,
  repeat = 20,
): Promise<{ stepMs: number; kernels: KernelTime[] } | null> {
  const inputs = cap.lastInputs;
  if (!inputs) return null;
  const names = pipelineNames(b);
  const dispatches = cap.ops.filter((o) => o.kind === 'dispatch');
  const scratch = new Uint8Array(cap.stagedBytes);
  const time = async (ops: typeof dispatches): Promise<number> => {
    await b.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    const enc = b.device.createCommandEncoder();
    stageInputs(b, cap, arena, inputs, scratch, enc);
    const pass = enc.beginComputePass();
    for (let r = 0; r < repeat; r++) {
      for (const op of ops) {
        pass.setPipeline(op.pipeline);
        pass.setBindGroup(0, op.bindGroup);
        pass.dispatchWorkgroups(op.x, op.y, op.z);
      }
    }
    pass.end();
    b.queue.submit([enc.finish()]);
    await b.queue.onSubmittedWorkDone();
    return (performance.now() - t0) / repeat;
  };
  const byKernel = new Map<string, typeof dispatches>();
  for (const op of dispatches) {
    const name = names.get(op.pipeline) ?? (op.pipeline.label || 'unnamed');
    if (!byKernel.has(name)) byKernel.set(name, []);
    byKernel.get(name)!.push(op);
  }
  const stepMs = await time(dispatches);
  const kernels: KernelTime[] = [];
  for (const [kernel, ops] of byKernel) kernels.push({ kernel, dispatches: ops.length, ms: await time(ops) });
  return { stepMs, kernels: kernels.sort((x, y) => y.ms - x.ms) };
}

/** Short names of tfjs's compiled pipelines: the program's class, or this project's key for its own. */
function pipelineNames(b: BackendInternals): Map<GPUComputePipeline, string> {
  const cache = (b as unknown as { pipelineCache: Record<string, GPUComputePipeline> }).pipelineCache ?? {};
  const out = new Map<GPUComputePipeline, string>();
  for (const [key, p] of Object.entries(cache)) {
    const own = /^eorm_[a-z0-9_]+?(?=_\d|$|_[A-Z])/.exec(key)?.[0] ?? /^eorm_[a-z_]+/.exec(key)?.[0];
    out.set(p, own ?? p.label ?? key.slice(0, 40));
  }
  return out;
}
