import type { AppRun } from './appRun.ts';

const f0 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const f1 = (x: number) => x.toFixed(1);
const mb = (x: number | null) => `${((x ?? 0) / 1e6).toFixed(1)} MB`;

/** One run's work per training step, in words: kernels everywhere; on WebGPU dispatches, uploads, pipelines and the buffer pool. */
export function formatCounters(r: AppRun): string {
  const c = r.counters;
  const epochs = c.pipelinesFirstEpoch === null ? '' : `, ${c.pipelinesFirstEpoch} in the first epoch, ${c.pipelinesAfterFirstEpoch} after it`;
  const replay = c.replay
    ? `replay on: ${f1(c.replaysPerStep)} replayed and ${f1(c.recordingsPerStep)} recorded per step (training and scoring), ${f1(c.replayMsPerStep)} ms replaying, ${c.captures} shapes kept in ${mb(c.captureBytes)}; `
    : 'replay off; ';
  const gpu =
    r.backend === 'webgpu'
      ? `, ${f1(c.dispatchesPerStep)} dispatches, ${f1(c.submitsPerStep)} submits, ${f1(c.uniformWritesPerStep)} uniform writes, ${f1(c.bindGroupsPerStep)} bind groups, ${f1(c.readbacksPerStep)} readbacks, ${f0(c.uploadBytesPerStep)} B uploaded, ${f1(c.buffersCreatedPerStep)} buffers created; ${replay}` +
        `pipelines ${c.pipelinesBeforeWindow} before the window, ${c.pipelinesInWindow} during${epochs}; ` +
        `GPU pool ${mb(c.gpuBytesAllocated)} at the pause, at most ${mb(c.gpuPeakBytesAllocated)} while training (peak in use ${mb(c.gpuPeakBytesUsed)}), vs live tensors ${mb(c.liveTensorBytes)}`
      : '';
  // A validation in the window (an epoch too short for the page to pause before its end) adds its work here.
  const validated = r.train.window.validations > 0 ? `; the work of ${r.train.window.validations} validation included` : '';
  const shared = c.sharedStepShare > 0 ? `, ${(100 * c.sharedStepShare).toFixed(0)}% of steps half on the other core` : '';
  const thread =
    r.backend === 'webgpu'
      ? `${f1(c.kernelMsPerStep + c.replayMsPerStep)} ms on the engine thread in kernels and replays`
      : `${f1(c.kernelMsPerStep)} ms in them on the engine thread`;
  const top = c.topKernelMsPerStep.length ? `; most: ${c.topKernelMsPerStep.map(([k, ms]) => `${k} ${f1(ms)}`).join(', ')} ms` : '';
  return `${f1(c.kernelsPerStep)} kernels (${thread}${top})${shared}${gpu} (over ${c.windowSteps} steps${validated})`;
}
