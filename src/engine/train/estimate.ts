import { type ModelConfig, paramCount } from '../model/config.ts';
import { activationBytesPerCandidate } from '../model/autoMicroBatch.ts';

export interface MemoryEstimate {
  params: number;
  /** Weights + AdamW m and v + gradients (twice when micro-batches accumulate) + one pass's activations. */
  trainingBytes: number;
  /** The largest single tensor: embedding table, attention scores or FFN activations of one pass. */
  largestBufferBytes: number;
  warnings: string[];
}

export interface AdapterLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

const GB = 1024 ** 3;
const fmt = (b: number) => (b >= GB ? `${(b / GB).toFixed(2)} GB` : `${(b / 1024 ** 2).toFixed(0)} MB`);

/**
 * A deliberately rough, upper-side estimate of training memory (float32 everywhere), enough to warn
 * before a run that cannot fit. `candidatesPerPass` is the micro-batch, or the largest step's candidates.
 */
export function estimateMemory(cfg: ModelConfig, candidatesPerPass: number, microBatched: boolean, limits: AdapterLimits | null): MemoryEstimate {
  const P = paramCount(cfg);
  const B = Math.max(1, candidatesPerPass);
  const T = cfg.maxLen;
  const d = cfg.dModel;
  const activations = B * activationBytesPerCandidate(cfg, T);
  const state = 4 * P * (microBatched ? 5 : 4);
  const largest = 4 * Math.max(cfg.vocabSize * d, B * cfg.nHeads * T * T, B * T * cfg.ffnDim);
  const warnings: string[] = [];
  if (limits && largest > limits.maxStorageBufferBindingSize) {
    warnings.push(
      `One tensor needs ${fmt(largest)}, more than this GPU allows in one buffer binding (maxStorageBufferBindingSize ${fmt(limits.maxStorageBufferBindingSize)}). ` +
        'Lower maxLen or the micro-batch size.',
    );
  } else if (limits && largest > limits.maxBufferSize) {
    warnings.push(`One tensor needs ${fmt(largest)}, above this GPU's maxBufferSize (${fmt(limits.maxBufferSize)}). Lower maxLen or the micro-batch size.`);
  }
  const total = state + activations;
  if (total > 4 * GB)
    warnings.push(`Training needs roughly ${fmt(total)} of GPU memory; most laptop GPUs have less. Try a smaller preset, maxLen or micro-batch.`);
  return { params: P, trainingBytes: total, largestBufferBytes: largest, warnings };
}
