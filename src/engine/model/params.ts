import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { readTogether } from '../gpuMemory/readTogether.ts';
import { type ModelConfig, paramShapes } from './config.ts';

/** Model parameters by PyTorch `state_dict` name. Variables are trained in place. */
export type Params = Map<string, tf.Variable>;
/** Plain parameter values by name, as read from or written to a safetensors file. */
export type ParamArrays = Map<string, Float32Array>;

/** Wraps arrays (e.g. from a safetensors file) as trainable variables; shapes are checked against the config. */
export function paramsFromArrays(cfg: ModelConfig, arrays: ParamArrays): Params {
  const params: Params = new Map();
  try {
    for (const [name, shape] of paramShapes(cfg)) {
      const data = arrays.get(name);
      if (!data) throw new Error(`parameter "${name}" is missing`);
      const size = shape.reduce((a, b) => a * b, 1);
      if (data.length !== size) throw new Error(`parameter "${name}" has ${data.length} values, the config needs ${size} (shape [${shape.join(', ')}])`);
      params.set(
        name,
        tf.tidy(() => tf.variable(tf.tensor(data, shape, 'float32'), true, `${name}#${uniqueSuffix()}`)),
      );
    }
  } catch (e) {
    // The variables made before the failure would otherwise hold their memory for good.
    disposeParams(params);
    throw e;
  }
  return params;
}

/** Reads every parameter back to the CPU as it is when called (readTogether: one map on WebGPU). */
export async function paramsToArrays(params: Params, profile: BackendProfile): Promise<ParamArrays> {
  const names = [...params.keys()];
  const values = await readTogether([...params.values()], profile.readTogether);
  return new Map(names.map((name, i) => [name, values[i]]));
}

/**
 * Fresh weights with PyTorch's default initialisation, so a model trained here starts where the
 * reference would: Embedding N(0,1); MultiheadAttention in_proj Xavier-uniform with zero biases and a
 * zero out_proj bias; other Linears U(±1/√fan_in) for weight and bias; LayerNorm 1 and 0.
 */
export function initParams(cfg: ModelConfig, seed: number): Params {
  const shapes = new Map(paramShapes(cfg));
  const params: Params = new Map();
  let k = 0;
  for (const [name, shape] of shapes) {
    const paramSeed = seed * 1000 + k++;
    params.set(
      name,
      tf.tidy(() => tf.variable(initValue(name, shape, shapes, paramSeed), true, `${name}#${uniqueSuffix()}`)),
    );
  }
  return params;
}

function initValue(name: string, shape: number[], shapes: Map<string, number[]>, seed: number): tf.Tensor {
  const isWeight = name.endsWith('weight');
  if (name === 'emb.weight' || name === 'pos.weight') return tf.randomNormal(shape, 0, 1, 'float32', seed);
  if (name.endsWith('in_proj_weight')) {
    const a = Math.sqrt(6 / (shape[0] + shape[1]));
    return tf.randomUniform(shape, -a, a, 'float32', seed);
  }
  if (name.endsWith('in_proj_bias') || name.endsWith('out_proj.bias')) return tf.zeros(shape);
  if (/norm\d\.|^head\.0\./.test(name)) return isWeight ? tf.ones(shape) : tf.zeros(shape);
  // nn.Linear: kaiming_uniform(a=√5) gives U(±1/√fan_in) for the weight; the bias uses the same bound.
  const weightShape = isWeight ? shape : shapes.get(name.replace(/bias$/, 'weight'))!;
  const bound = 1 / Math.sqrt(weightShape[1]);
  return tf.randomUniform(shape, -bound, bound, 'float32', seed);
}

let counter = 0;
/** tfjs variable names must be unique per process; several models may coexist (latest, best, imported). */
function uniqueSuffix(): number {
  return counter++;
}

export function disposeParams(params: Params): void {
  for (const v of params.values()) v.dispose();
  params.clear();
}

/**
 * An independent copy: a frozen snapshot (the best checkpoint), or trainable weights to continue from.
 * The values are copied by an op (× 1 keeps −0 and NaN): `clone()` would share the source's buffer,
 * which on the CPU backend can be a JS array still written in place (the lazy embedding's table).
 */
export function cloneParams(params: Params, trainable = false): Params {
  const out: Params = new Map();
  for (const [name, v] of params)
    out.set(
      name,
      tf.tidy(() => tf.variable(tf.mul(v, 1), trainable, `${name}#${uniqueSuffix()}`)),
    );
  return out;
}
