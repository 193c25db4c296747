import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { type AdamWStep, adamwScalars } from './adamw.ts';
import type { KernelFamily } from '../register.ts';
import { type Binding, ownsBuffer, runInPlace } from '../webgpu/inPlace.ts';
import { WORKGROUP } from '../webgpu/program.ts';

/**
 * AdamW on WebGPU over every parameter, in place: the moments of all parameters live in one flat buffer
 * (every m, then every v, then the step's own values: clip coefficient S, apply flag A, and the
 * hyper-parameters that change with the step — decay 1 − lr·wd, step size lr/(1 − β1^t), 1/√(1 − β2^t)),
 * and each dispatch updates the moments and the parameters themselves of up to LINK parameters (tfjs
 * programs write one new tensor per dispatch, so this goes through inPlace.ts). One dispatch first copies
 * the step's values into the buffer: with them there, a dispatch binds the moments, and a parameter and
 * its gradient for each of the LINK parameters (7 of WebGPU's default 8 storage buffers). The tiny
 * model's 31 parameters take 12 dispatches (the composition ~12 per parameter, three fused
 * per-parameter kernels 3). Where A is 0 nothing changes. The step's values come from tensors, not
 * uniforms, so the step's GPU work is the same from step to step (replay/stepReplay.ts).
 *
 * A parameter whose gradient comes as rows (`sparse`: the token embedding, trained as a compact table of
 * the rows a step uses) is still updated whole, as full AdamW does: a row absent from the step has
 * gradient 0 (its moments decay and keep moving it). Each entry finds its row among the step's rows by
 * binary search (they are ascending), so no [vocabulary × d] gradient is ever made.
 */
export const ADAMW_LINK = 'EormAdamWLink';

const LINK = 3;

/** Entries after the moments: S, A, decay, step size, 1/√(1 − β2^t). */
export const FLAT_TAIL = 5;

/** 1 − β1 and 1 − β2 come in computed in double, as the composition's scalars (1.0 − f32(0.999) is off by 1.3e-5). */
const HYPER = 'beta1 : f32, beta2 : f32, c1 : f32, c2 : f32, eps : f32, total : i32,';

function hyper(s: Omit<AdamWStep, 'lr' | 't'>, total: number): Array<{ type: 'float32' | 'int32'; data: number[] }> {
  return [...[s.beta1, s.beta2, 1 - s.beta1, 1 - s.beta2, s.eps].map((x) => ({ type: 'float32' as const, data: [x] })), { type: 'int32', data: [total] }];
}

/** The hyper-parameters of step `s` that change with lr and t, computed in double as the composition's scalars: decay, step size, 1/√(1 − β2^t). */
export function stepHyper(s: AdamWStep): Float32Array {
  const { decay, stepSize, invSqrtBias2 } = adamwScalars(s);
  return Float32Array.of(decay, stepSize, invSqrtBias2);
}

/** The update of one entry: m and v at `at` in the flat buffer, the new parameter value returned. */
const ADAM = `
  fn adam(at : i32, g0 : f32, p : f32) -> f32 {
    let tail = 2 * uniforms.total;
    let g = g0 * MV[tail];
    let m = MV[at] * uniforms.beta1 + g * uniforms.c1;
    let v = MV[uniforms.total + at] * uniforms.beta2 + (g * g) * uniforms.c2;
    MV[at] = m;
    MV[uniforms.total + at] = v;
    return p * MV[tail + 2] - MV[tail + 3] * (m / (sqrt(v) * MV[tail + 4] + uniforms.eps));
  }
  fn applied() -> bool { return MV[2 * uniforms.total + 1] != 0.0; }`;

/** The step's S, A and hyper-parameters H into the buffer's tail. */
const GATE = `
  fn main(index : i32) {
    if (index == 0) {
      let tail = 2 * uniforms.total;
      MV[tail] = S[0];
      MV[tail + 1] = select(0.0, 1.0, A[0] != 0);
      MV[tail + 2] = H[0];
      MV[tail + 3] = H[1];
      MV[tail + 4] = H[2];
    }
  }`;

/** Thread i finds its parameter by the sizes n0, n1, … and updates it at offset o_j of the moments. */
function denseLink(k: number): string {
  const branches = Array.from(
    { length: k },
    (_, j) => `if (i < uniforms.n${j}) { P${j}[i] = adam(uniforms.o${j} + i, G${j}[i], P${j}[i]); return; }
      i = i - uniforms.n${j};`,
  );
  return `${ADAM}
    fn main(index : i32) {
      if (!applied()) { return; }
      var i = index;
      ${branches.join('\n      ')}
    }`;
}

/** Every entry of a [rows × width] parameter whose gradient G holds only the ascending rows R. */
const SPARSE = `${ADAM}
  fn main(index : i32) {
    if (index >= uniforms.n || !applied()) { return; }
    let row = index / uniforms.width;
    var lo = 0;
    var hi = uniforms.used;
    while (lo < hi) {
      let mid = (lo + hi) / 2;
      if (R[mid] < row) { lo = mid + 1; } else { hi = mid; }
    }
    var g = 0.0;
    if (lo < uniforms.used && R[lo] == row) { g = G[lo * uniforms.width + index % uniforms.width]; }
    P[index] = adam(uniforms.o + index, g, P[index]);
  }`;

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);
const groups = (n: number) => Math.ceil(n / WORKGROUP);
const int = (x: number) => ({ type: 'int32' as const, data: [x] });

/** Whether the moments of `entries` parameter entries fit in one storage binding of the device in use. */
export function flatMomentsFit(entries: number): boolean {
  return (2 * entries + FLAT_TAIL) * 4 <= (tf.backend() as unknown as WebGPUBackend).device.limits.maxStorageBufferBindingSize;
}

/** A gradient given as rows: `grad` [rows.length × width] holds the gradient of the ascending `rows`, every other row's is 0. */
export interface RowGradient {
  rows: tf.Tensor1D;
  grad: tf.Tensor2D;
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
    this.buffer = tf.tidy(() => tf.variable(tf.zeros([2 * total + FLAT_TAIL]), false));
  }

  /**
   * One AdamW step of every parameter, in place. `grads` holds a dense gradient per parameter but for
   * those in `sparse` (by name). `h`: stepHyper(s) already on the device (a training step's input);
   * left out, it is uploaded from `s`.
   */
  step(
    params: ReadonlyMap<string, tf.Variable>,
    grads: ReadonlyMap<string, tf.Tensor>,
    scale: tf.Scalar,
    apply: tf.Scalar,
    s: AdamWStep,
    sparse: ReadonlyMap<string, RowGradient> = new Map(),
    h?: tf.Tensor1D,
  ): void {
    const backend = tf.backend() as unknown as WebGPUBackend;
    const param = (name: string) => {
      const p = params.get(name)!;
      // Written in place: a parameter sharing its buffer with another tensor gets a buffer of its own first.
      if (!ownsBuffer(backend, p)) tf.tidy(() => p.assign(tf.add(p, tf.zerosLike(p))));
      return p;
    };
    const gradOf = (name: string) => {
      const g = grads.get(name);
      if (!g) throw new Error(`no gradient for parameter "${name}"`);
      return g;
    };
    tf.tidy(() =>
      tf.engine().runKernel(ADAMW_LINK, { mv: this.buffer, s: scale, a: apply, h: h ?? tf.tensor1d(stepHyper(s)) }, { code: 'gate', total: this.total }),
    );
    const dense = [...this.offsets.keys()].filter((n) => !sparse.has(n));
    for (let at = 0; at < dense.length; at += LINK) {
      const link = dense.slice(at, at + LINK);
      const inputs: Record<string, tf.Tensor> = { mv: this.buffer };
      link.forEach((n, j) => {
        inputs[`p${j}`] = param(n);
        inputs[`g${j}`] = gradOf(n);
      });
      tf.engine().runKernel(ADAMW_LINK, inputs, {
        ...s,
        code: 'dense',
        total: this.total,
        sizes: link.map((n) => this.sizes.get(n)!),
        offsets: link.map((n) => this.offsets.get(n)!),
      });
    }
    for (const [name, { rows, grad }] of sparse) {
      const p = param(name);
      if (p.rank !== 2 || grad.shape[1] !== p.shape[1] || grad.shape[0] !== rows.shape[0])
        throw new Error(`row gradient of "${name}" does not fit its [${p.shape.join(', ')}] parameter`);
      tf.engine().runKernel(ADAMW_LINK, { mv: this.buffer, p, g: grad, r: rows }, { ...s, code: 'sparse', total: this.total, offset: this.offsets.get(name)! });
    }
  }

  /** Every parameter's m and v in a read-back of `buffer`, as views into it. */
  split(flat: Float32Array): { m: Map<string, Float32Array>; v: Map<string, Float32Array> } {
    if (flat.length !== 2 * this.total + FLAT_TAIL) throw new Error(`flat moments: ${flat.length} values, expected ${2 * this.total + FLAT_TAIL}`);
    const part = (base: number) => new Map([...this.offsets].map(([n, o]) => [n, flat.subarray(base + o, base + o + this.sizes.get(n)!)]));
    return { m: part(0), v: part(this.total) };
  }

  /** Takes up m and v (every parameter's, sized as the parameter). */
  write(m: ReadonlyMap<string, Float32Array>, v: ReadonlyMap<string, Float32Array>): void {
    const flat = new Float32Array(2 * this.total + FLAT_TAIL);
    for (const [name, o] of this.offsets) {
      const mv = m.get(name);
      const vv = v.get(name);
      if (!mv || !vv || mv.length !== this.sizes.get(name) || vv.length !== this.sizes.get(name))
        throw new Error(`optimizer state for "${name}" is missing or mis-sized`);
      flat.set(mv, o);
      flat.set(vv, this.total + o);
    }
    tf.tidy(() => this.buffer.assign(tf.tensor1d(flat)));
  }

  dispose(): void {
    this.buffer.dispose();
  }
}

type LinkAttrs = AdamWStep & { code: 'gate' | 'dense' | 'sparse'; total: number; sizes?: number[]; offsets?: number[]; offset?: number };

/**
 * The kernel writes into its inputs and returns no tensor; a kernel rather than a bare dispatch, so
 * profiles and counters see it.
 */
export const ADAMW_FLAT_WEBGPU: KernelFamily = {
  kernels: [
    {
      kernelName: ADAMW_LINK,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const a = attrs as unknown as LinkAttrs;
        const b = backend as unknown as WebGPUBackend;
        const mv: Binding = { name: 'MV', t: inputs.mv!, write: true };
        if (a.code === 'gate') {
          runInPlace(
            b,
            'eorm_adamw_gate',
            GATE,
            [mv, { name: 'S', t: inputs.s! }, { name: 'A', t: inputs.a!, type: 'i32' }, { name: 'H', t: inputs.h! }],
            'total : i32,',
            [int(a.total)],
            1,
            1,
          );
        } else if (a.code === 'dense') {
          const k = a.sizes!.length;
          const bindings: Binding[] = [mv];
          for (let j = 0; j < k; j++) bindings.push({ name: `P${j}`, t: inputs[`p${j}`]!, write: true }, { name: `G${j}`, t: inputs[`g${j}`]! });
          const count = a.sizes!.reduce((x, y) => x + y, 0);
          const decl = `${HYPER} ${a.sizes!.map((_, j) => `n${j} : i32, o${j} : i32,`).join(' ')}`;
          runInPlace(
            b,
            `eorm_adamw_dense_${k}`,
            denseLink(k),
            bindings,
            decl,
            [...hyper(a, a.total), ...a.sizes!.flatMap((n, j) => [int(n), int(a.offsets![j])])],
            groups(count),
          );
        } else {
          const p = inputs.p!;
          const n = size(p.shape);
          runInPlace(
            b,
            'eorm_adamw_sparse',
            SPARSE,
            [mv, { name: 'P', t: p, write: true }, { name: 'G', t: inputs.g! }, { name: 'R', t: inputs.r!, type: 'i32' }],
            `${HYPER} n : i32, o : i32, width : i32, used : i32,`,
            [...hyper(a, a.total), int(n), int(a.offset!), int(p.shape[1]), int(inputs.r!.shape[0])],
            groups(n),
          );
        }
        return [];
      },
    },
  ],
};
