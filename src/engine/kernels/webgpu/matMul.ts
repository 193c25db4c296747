import * as tf from '@tensorflow/tfjs';
import type { KernelFamily } from '../register.ts';

/**
 * Matrix products on WebGPU in larger tiles than tfjs's own: each workgroup computes a 64 × 64 block of
 * the output, each thread an interleaved W × W of it, over K in steps of 16 through workgroup memory;
 * transposes and a batch read in place, the bias added in the epilogue, no atomics (the same bits every
 * run). tfjs's packed program computes 32 × 32 blocks of 4 × 4: on a large GPU the products of the
 * paper-size model, which bound its step once replay removed the engine thread's cost, run faster here.
 *
 * It takes over tfjs's BatchMatMul and _FusedMatMul kernels on WebGPU for what it covers (float32, a
 * batch on both sides or one, a bias of the output's width, no activation) and hands everything else to
 * tfjs's kernel, which stays the reference it is checked against (kernelChecks/matMul.ts).
 */
export const TILED_MATMUL = 'EormTiledMatMul';

/** Threads per side of a workgroup and outputs per side of a thread: 16 × 4 (256 threads) or 8 × 8 (64 threads). */
export type TileShape = '16x4' | '8x8';
let tiles: TileShape | null = '16x4';

/** Which tiles the products use, or null for tfjs's own kernel (the GPU bench compares them); returns the previous choice. */
export function useTiledMatMul(t: TileShape | null): TileShape | null {
  const before = tiles;
  tiles = t;
  return before;
}

const BK = 16;

function shader(ts: number, w: number, transposeA: boolean, transposeB: boolean, bias: boolean): string {
  const bm = ts * w;
  const threads = ts * ts;
  const per = (bm * BK) / threads;
  const stride = bm + 1; // a padded row: stores down a column hit different banks
  const aAt = transposeA ? 'k * uniforms.dimM + m' : 'm * uniforms.dimK + k';
  const bAt = transposeB ? 'n * uniforms.dimK + k' : 'k * uniforms.dimN + n';
  // Consecutive threads load consecutive addresses of A and B as they lie in memory.
  const aIdx = transposeA ? `let mm = e % ${bm}; let kk = e / ${bm};` : `let kk = e % ${BK}; let mm = e / ${BK};`;
  const bIdx = transposeB ? `let kk = e % ${BK}; let nn = e / ${BK};` : `let nn = e % ${bm}; let kk = e / ${bm};`;
  return `
  var<workgroup> tileA : array<f32, ${BK * stride}>;
  var<workgroup> tileB : array<f32, ${BK * stride}>;
  fn main() {
    let t = i32(localIndex);
    let tx = t % ${ts};
    let ty = t / ${ts};
    let batch = i32(workgroupId.z);
    let m0 = i32(workgroupId.y) * ${bm};
    let n0 = i32(workgroupId.x) * ${bm};
    let aBase = select(0, batch, uniforms.batchA > 1) * uniforms.dimM * uniforms.dimK;
    let bBase = select(0, batch, uniforms.batchB > 1) * uniforms.dimK * uniforms.dimN;
    var acc : array<array<f32, ${w}>, ${w}>;
    for (var k0 = 0; k0 < uniforms.dimK; k0 += ${BK}) {
      for (var i = 0; i < ${per}; i++) {
        let e = t + ${threads} * i;
        {
          ${aIdx}
          let m = m0 + mm;
          let k = k0 + kk;
          var v = 0.0;
          if (m < uniforms.dimM && k < uniforms.dimK) { v = A[aBase + ${aAt}]; }
          tileA[kk * ${stride} + mm] = v;
        }
        {
          ${bIdx}
          let n = n0 + nn;
          let k = k0 + kk;
          var v = 0.0;
          if (n < uniforms.dimN && k < uniforms.dimK) { v = B[bBase + ${bAt}]; }
          tileB[kk * ${stride} + nn] = v;
        }
      }
      workgroupBarrier();
      for (var kk = 0; kk < ${BK}; kk++) {
        var a : array<f32, ${w}>;
        var b : array<f32, ${w}>;
        for (var i = 0; i < ${w}; i++) { a[i] = tileA[kk * ${stride} + ty + ${ts} * i]; }
        for (var j = 0; j < ${w}; j++) { b[j] = tileB[kk * ${stride} + tx + ${ts} * j]; }
        for (var i = 0; i < ${w}; i++) {
          for (var j = 0; j < ${w}; j++) { acc[i][j] = acc[i][j] + a[i] * b[j]; }
        }
      }
      workgroupBarrier();
    }
    for (var i = 0; i < ${w}; i++) {
      let m = m0 + ty + ${ts} * i;
      for (var j = 0; j < ${w}; j++) {
        let n = n0 + tx + ${ts} * j;
        if (m < uniforms.dimM && n < uniforms.dimN) {
          var v = acc[i][j];
          ${bias ? 'v = v + BIAS[n];' : ''}
          setOutputAtIndex((batch * uniforms.dimM + m) * uniforms.dimN + n, v);
        }
      }
    }
  }`;
}

class TiledMatMulProgram {
  readonly variableNames: string[];
  readonly outputShape: number[];
  shaderKey: string;
  readonly dispatchLayout = { x: [2], y: [1], z: [0] };
  dispatch: [number, number, number];
  readonly workgroupSize: [number, number, number];
  readonly uniforms = 'dimM : i32, dimN : i32, dimK : i32, batchA : i32, batchB : i32,';
  private readonly code: string;

  constructor(outputShape: number[], tile: TileShape, transposeA: boolean, transposeB: boolean, bias: boolean) {
    const [ts, w] = tile === '16x4' ? [16, 4] : [8, 8];
    const [batch, M, N] = outputShape.slice(-3);
    this.outputShape = outputShape;
    this.variableNames = bias ? ['A', 'B', 'BIAS'] : ['A', 'B'];
    this.shaderKey = `eorm_matmul_${tile}_${transposeA ? 't' : 'n'}${transposeB ? 't' : 'n'}${bias ? '_bias' : ''}`;
    this.workgroupSize = [ts * ts, 1, 1];
    this.dispatch = [Math.ceil(N / (ts * w)), Math.ceil(M / (ts * w)), batch];
    this.code = shader(ts, w, transposeA, transposeB, bias);
  }

  getUserCode(): string {
    return this.code;
  }
}

type Attrs = { transposeA: boolean; transposeB: boolean; activation?: string };

/** The product as [batch, M, N] when this kernel covers it, else null (tfjs's kernel runs). */
function covered(a: tf.TensorInfo, b: tf.TensorInfo, bias: tf.TensorInfo | undefined, attrs: Attrs): { batchA: number; batchB: number; M: number; N: number; K: number; shape: number[] } | null {
  if (!tiles || a.dtype !== 'float32' || b.dtype !== 'float32' || a.shape.length < 2 || b.shape.length < 2) return null;
  if (attrs.activation && attrs.activation !== 'linear') return null;
  const [ra, rb] = [a.shape.length, b.shape.length];
  const M = attrs.transposeA ? a.shape[ra - 1] : a.shape[ra - 2];
  const K = attrs.transposeA ? a.shape[ra - 2] : a.shape[ra - 1];
  const N = attrs.transposeB ? b.shape[rb - 2] : b.shape[rb - 1];
  if ((attrs.transposeB ? b.shape[rb - 1] : b.shape[rb - 2]) !== K) return null;
  const outerA = a.shape.slice(0, -2);
  const outerB = b.shape.slice(0, -2);
  const batchA = outerA.reduce((x, y) => x * y, 1);
  const batchB = outerB.reduce((x, y) => x * y, 1);
  let outer: number[];
  if (batchA === batchB && outerA.length === outerB.length && outerA.every((d, i) => d === outerB[i])) outer = outerA;
  else if (batchB === 1) outer = outerA;
  else if (batchA === 1) outer = outerB;
  else return null;
  if (bias && (bias.dtype !== 'float32' || bias.shape.reduce((x, y) => x * y, 1) !== N)) return null;
  return { batchA, batchB, M, N, K, shape: [...outer, M, N] };
}

function run(backend: unknown, a: tf.TensorInfo, b: tf.TensorInfo, bias: tf.TensorInfo | undefined, attrs: Attrs, p: NonNullable<ReturnType<typeof covered>>): tf.TensorInfo {
  const batch = Math.max(p.batchA, p.batchB);
  const program = new TiledMatMulProgram([batch, p.M, p.N], tiles!, attrs.transposeA, attrs.transposeB, !!bias);
  const uniforms = [p.M, p.N, p.K, p.batchA, p.batchB].map((v) => ({ type: 'int32' as const, data: [v] }));
  const web = backend as { runWebGPUProgram(p: unknown, i: tf.TensorInfo[], dtype: string, u: unknown[]): tf.TensorInfo };
  const out = web.runWebGPUProgram(program, bias ? [a, b, bias] : [a, b], 'float32', uniforms);
  // Same buffer, the product's own shape (its leading dimensions).
  return { ...out, shape: p.shape };
}

/**
 * tfjs's BatchMatMul and _FusedMatMul on WebGPU, covered products through the tiles above: `original`
 * is tfjs's own kernel function for each, which runs the rest.
 */
export function tiledMatMulFamily(original: { batch: tf.KernelFunc; fused: tf.KernelFunc }): KernelFamily {
  return {
    kernels: [
      {
        kernelName: 'BatchMatMul',
        kernelFunc: (args) => {
          const { a, b } = args.inputs as Record<string, tf.TensorInfo>;
          const p = covered(a, b, undefined, args.attrs as unknown as Attrs);
          return p ? run(args.backend, a, b, undefined, args.attrs as unknown as Attrs, p) : original.batch(args);
        },
      },
      {
        kernelName: '_FusedMatMul',
        kernelFunc: (args) => {
          const { a, b, bias, preluActivationWeights } = args.inputs as Record<string, tf.TensorInfo | undefined>;
          const p = preluActivationWeights ? null : covered(a!, b!, bias, args.attrs as unknown as Attrs);
          return p ? run(args.backend, a!, b!, bias, args.attrs as unknown as Attrs, p) : original.fused(args);
        },
      },
      // A marker: the profile's fused.matMul, and what the parity check looks for.
      { kernelName: TILED_MATMUL, kernelFunc: () => [] },
    ],
  };
}
