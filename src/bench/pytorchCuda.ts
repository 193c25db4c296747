/** The GPU bench's PyTorch side (gpu.bench.ts): eager float32, AMP and AMP + CUDA graphs on the CUDA device, or why not. */
import { spawnSync } from 'node:child_process';
import { findPython, runPython } from '../engine/testing/pythonNode.ts';
import type { ModelSettings } from '../engine/train/settings.ts';
import type { TorchRun } from './gpuTargets.ts';

export interface TorchCuda extends TorchRun {
  device: string;
  train: { steps: number; stepsPerSec: number; tokensPerSec: number };
}

/** PyTorch's same step on the CUDA device, or why not. */
export function pytorchCuda(name: string, model: ModelSettings, data: string, seconds: number): TorchCuda | string {
  const { python } = findPython();
  if (!python) return 'no Python with torch';
  const probe = spawnSync(python, ['-c', 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)']);
  if (probe.status !== 0) return 'torch sees no CUDA device';
  const preset = name.split('@')[0];
  try {
    const out = runPython(python, [
      '-m',
      'eorm.bench',
      '--data',
      data,
      '--preset',
      preset,
      '--max-len',
      String(model.maxLen),
      '--device',
      'cuda',
      '--modes',
      'eager,amp,graphs',
      '--steps',
      '1000000',
      '--seconds',
      String(seconds),
    ]);
    return JSON.parse(out.trim().split('\n').pop()!) as TorchCuda;
  } catch (e) {
    // The app's figures are already in hand: PyTorch failing is reported beside them, not in their place.
    return `failed: ${String(e).slice(-600)}`;
  }
}
