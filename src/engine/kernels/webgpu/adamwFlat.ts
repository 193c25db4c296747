import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import type { AdamWStep } from '../adamw.ts';
import { WORKGROUP, WorkgroupProgram, runProgram } from './program.ts';

/**
 * AdamW on WebGPU over every parameter with the moments of all of them in one flat buffer (every m,
 * then every v): the moments of up to LINK gradients are updated in place by one dispatch, then each
 * parameter by one dispatch reading its moments there. The tiny model's 31 parameters take 7 + 31
 * dispatches instead of 3 each. As in the per-parameter kernel, the clip coefficient S and the apply
 * flag A (a bool stored as i32) stay on the device; where A is 0 nothing changes.
 */
export const ADAMW_PARAM = 'EormAdamWParam';

/** Gradients per moments dispatch: 7 inputs at most (8 storage buffers, one the output), two are S and A. */
const LINK = 5;

/** 1 − β1 and 1 − β2 come in computed in double, as the composition's scalars (1.0 − f32(0.999) is off by 1.3e-5). */
const HYPER = 'beta1 : f32, beta2 : f32, c1 : f32, c2 : f32, decay : f32, stepSize : f32, invSqrtBias2 : f32, eps : f32,';

function hyper(s: AdamWStep): Array<{ type: 'float32'; data: number[] }> {
  return [s.beta1, s.beta2, 1 - s.beta1, 1 - s.beta2, 1 - s.lr * s.weightDecay, s.lr / (1 - s.beta1 ** s.t), 1 / Math.sqrt(1 - s.beta2 ** s.t), s.eps].map((x) => ({ type: 'float32', data: [x] }));
}

/** One link: thread i finds its gradient by the sizes n0, n1, … and updates m and v at that gradient's offset in `result`. */
function momentsLink(k: number): string {
  const branches = Array.from(
    { length: k },
    (_, j) => `if (i < uniforms.n${j}) { update(uniforms.o${j} + i, G${j}[i]); return; }
      i = i - uniforms.n${j};`,
  );
  return `
    fn update(at : i32, g0 : f32) {
      let g = g0 * S[0];
      let m = result[at];
      let v = result[uniforms.total + at];
      let keep = A[0] != 0;
      result[at] = select(m, m * uniforms.beta1 + g * uniforms.c1, keep);
      result[uniforms.total + at] = select(v, v * uniforms.beta2 + (g * g) * uniforms.c2, keep);
    }
    fn main(index : i32) {
      var i = index;
      ${branches.join('\n      ')}
    }`;
}

const PARAM = `
  fn main(index : i32) {
    if (index < uniforms.n) {
      let p = P[index];
      let m = MV[uniforms.offset + index];
      let v = MV[uniforms.total + uniforms.offset + index];
      setOutputAtIndex(index, select(p, p * uniforms.decay - uniforms.stepSize * (m / (sqrt(v) * uniforms.invSqrtBias2 + uniforms.eps)), A[0] != 0));
    }
  }`;

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Whether the moments of `entries` parameter entries fit in one storage binding of the device in use. */
export function flatMomentsFit(entries: number): boolean {
  return 2 * entries * 4 <= (tf.backend() as unknown as WebGPUBackend).device.limits.maxStorageBufferBindingSize;
}

/** The moments of named parameters in one flat variable, and the update that uses it. */
export class FlatMoments {
  readonly offsets = new Map<string, number>();
  readonly sizes = new Map<string, number>();
  readonly total: number;
  readonly buffer: tf.Variable;

  constructor(shapes: ReadonlyArray<[string, readonly number[]]>) {
    let total = 0;
    for (const [name, shape] of shapes) {
      this.offsets.set(name, total);
      this.sizes.set(name, size(shape));
      total += size(shape);
    }
    this.total = total;
    this.buffer = tf.tidy(() => tf.variable(tf.zeros([2 * total]), false));
  }

  /** One AdamW step of every parameter: the moments in place, then each parameter assigned its new value. */
  step(params: ReadonlyMap<string, tf.Variable>, grads: ReadonlyMap<string, tf.Tensor>, scale: tf.Scalar, apply: tf.Scalar, s: AdamWStep): void {
    const names = [...this.offsets.keys()];
    const gradOf = (name: string) => {
      const g = grads.get(name);
      if (!g) throw new Error(`no gradient for parameter "${name}"`);
      return g;
    };
    const backend = tf.backend() as unknown as WebGPUBackend;
    const out = { dataId: this.buffer.dataId, shape: this.buffer.shape, dtype: 'float32' } as tf.TensorInfo;
    for (let at = 0; at < names.length; at += LINK) {
      const link = names.slice(at, at + LINK);
      const count = link.reduce((a, n) => a + this.sizes.get(n)!, 0);
      const program = new WorkgroupProgram(
        `adamw_moments_${link.length}`,
        ['S', 'A', ...link.map((_, j) => `G${j}`)],
        this.buffer.shape,
        Math.ceil(count / WORKGROUP),
        momentsLink(link.length),
        `${HYPER} total : i32, ${link.map((_, j) => `n${j} : i32, o${j} : i32,`).join(' ')}`,
      );
      const uniforms = [...hyper(s), { type: 'int32', data: [this.total] }, ...link.flatMap((n) => [{ type: 'int32', data: [this.sizes.get(n)!] }, { type: 'int32', data: [this.offsets.get(n)!] }])];
      // Written in place (the output is the moments' own buffer), outside the engine: no new tensor comes of it.
      backend.runWebGPUProgram(program as never, [scale, apply, ...link.map(gradOf)], 'float32', uniforms as never, out);
    }
    for (const name of names) {
      const p = params.get(name)!;
      tf.tidy(() => p.assign(tf.engine().runKernel(ADAMW_PARAM, { p, mv: this.buffer, apply }, { ...s, offset: this.offsets.get(name)!, total: this.total }) as tf.Tensor));
    }
  }

  /** Copies of every parameter's m and v, taken when called. */
  async read(): Promise<{ m: Map<string, Float32Array>; v: Map<string, Float32Array> }> {
    const copy = tf.tidy(() => tf.mul(this.buffer, 1));
    try {
      const flat = (await copy.data()) as Float32Array;
      const part = (base: number) => new Map([...this.offsets].map(([n, o]) => [n, flat.slice(base + o, base + o + this.sizes.get(n)!)]));
      return { m: part(0), v: part(this.total) };
    } finally {
      copy.dispose();
    }
  }

  /** Takes up m and v (every parameter's, sized as the parameter). */
  write(m: ReadonlyMap<string, Float32Array>, v: ReadonlyMap<string, Float32Array>): void {
    const flat = new Float32Array(2 * this.total);
    for (const [name, o] of this.offsets) {
      const mv = m.get(name);
      const vv = v.get(name);
      if (!mv || !vv || mv.length !== this.sizes.get(name) || vv.length !== this.sizes.get(name)) throw new Error(`optimizer state for "${name}" is missing or mis-sized`);
      flat.set(mv, o);
      flat.set(vv, this.total + o);
    }
    tf.tidy(() => this.buffer.assign(tf.tensor1d(flat)));
  }

  dispose(): void {
    this.buffer.dispose();
  }
}

let registered = false;

/** Registers the per-parameter kernel for the WebGPU backend (the worker calls this once WebGPU runs). */
export function registerWebGpuAdamWFlat(): void {
  if (registered) return;
  registered = true;
  tf.registerKernel({
    kernelName: ADAMW_PARAM,
    backendName: 'webgpu',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { p, mv, apply } = inputs as Record<string, tf.TensorInfo>;
      const s = attrs as unknown as AdamWStep & { offset: number; total: number };
      const n = size(p.shape);
      const program = new WorkgroupProgram('adamw_param', ['P', 'MV', 'A'], p.shape, Math.ceil(n / WORKGROUP), PARAM, `${HYPER} n : i32, offset : i32, total : i32,`);
      return runProgram(backend, program, [p, mv, apply], [...hyper(s), ...[n, s.offset, s.total].map((x) => ({ type: 'int32' as const, data: [x] }))]);
    },
  });
}
