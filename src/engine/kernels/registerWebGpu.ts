import { registerKernels } from './register.ts';
import { ADAMW_WEBGPU } from './adamw/webgpu.ts';
import { ADAMW_FLAT_WEBGPU } from './adamw/webgpuFlat.ts';
import { BT_LOSS_WEBGPU } from './btLoss/webgpu.ts';
import { COLUMN_SUM_WEBGPU } from './columnSum/webgpu.ts';
import { DROPOUT_WEBGPU } from './dropout/webgpu.ts';
import { GELU_WEBGPU } from './gelu/webgpu.ts';
import { GLOBAL_NORM_WEBGPU } from './globalNorm/webgpu.ts';
import { HEADS_WEBGPU } from './qkvHeads/webgpu.ts';
import { LAYER_NORM_WEBGPU } from './layerNorm/webgpu.ts';
import { ROW_SUM_WEBGPU } from './rowSum/webgpu.ts';
import { MASKED_SOFTMAX_WEBGPU } from './maskedSoftmax/webgpu.ts';
import { registerHalfPrecision } from '../precision/registerHalf.ts';

/**
 * Every fused WebGPU kernel of this project, registered for the 'webgpu' backend. The worker calls this
 * once WebGPU runs and before it detects the backend's profile (engine/backend/profile.ts), which turns
 * each fused op on where its kernel is registered.
 */
export function registerWebGpuKernels(): void {
  for (const family of [ADAMW_WEBGPU, LAYER_NORM_WEBGPU, GELU_WEBGPU, GLOBAL_NORM_WEBGPU, BT_LOSS_WEBGPU, MASKED_SOFTMAX_WEBGPU, COLUMN_SUM_WEBGPU, HEADS_WEBGPU, DROPOUT_WEBGPU, ADAMW_FLAT_WEBGPU, ROW_SUM_WEBGPU]) {
    registerKernels(['webgpu'], family);
  }
  // The f16 products and the loss scale's update, where the device has shader-f16.
  registerHalfPrecision();
}
