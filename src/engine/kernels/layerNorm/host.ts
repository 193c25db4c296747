import type * as tf from '@tensorflow/tfjs';
import { HOST_BACKENDS, type HostMemory, hostMemory, wasmHeap } from '../hostMemory.ts';
import { type KernelFamily, registerKernels } from '../register.ts';
import { type LayerNormLoops, simdLayerNorm } from './wasm.ts';
import { GRAD_WEIGHT_BIAS, GRAD_X, LAYER_NORM } from './layerNorm.ts';

/**
 * LayerNorm's three kernels (fusedLayerNorm, kernels/layerNorm/webgpu.ts) on the CPU-memory backends:
 * one pass forward and two backward over [rows, d], where the composition (layerNorm.ts's composedLayerNorm, the
 * reference) runs about 9 kernels forward and 20 backward, its weight and bias gradients as sums over
 * the rows that tfjs-wasm computes through a transpose. Row statistics and column sums accumulate in double.
 */
interface Attrs {
  eps: number;
}

const rowsOf = (t: tf.TensorInfo) => {
  const d = t.shape[t.shape.length - 1];
  return { d, rows: t.shape.reduce((a, b) => a * b, 1) / d };
};

/** Mean and 1/√(var + eps) of row r of x (biased variance, two passes as the composition). */
function rowStats(x: Float32Array, r: number, d: number, eps: number): [number, number] {
  let s = 0;
  for (let j = r * d; j < (r + 1) * d; j++) s += x[j];
  const mean = Math.fround(s / d);
  let q = 0;
  for (let j = r * d; j < (r + 1) * d; j++) q += (x[j] - mean) ** 2;
  return [mean, 1 / Math.sqrt(q / d + eps)];
}

/**
 * The forward in WebAssembly SIMD (wasm.ts): its passes over the rows, with each row's mean
 * and 1/√(var + eps) taken here from its partial sums, as rowStats does.
 */
function simdForward(
  loops: LayerNormLoops,
  backend: unknown,
  mem: HostMemory,
  [xInfo, wInfo, bInfo, yInfo]: tf.TensorInfo[],
  rows: number,
  d: number,
  eps: number,
): void {
  const heap = wasmHeap(backend);
  // Per row: four partial sums (32 bytes), the mean and rstd as float64.
  const scratch = heap._malloc(48 * rows);
  try {
    const [x, w, b, y] = [xInfo, wInfo, bInfo, yInfo].map((t) => mem.floats(t));
    const [sums, means, rstds] = [scratch, scratch + 32 * rows, scratch + 40 * rows];
    const f64 = new Float64Array(x.buffer, scratch, 6 * rows);
    const total = (r: number) => f64[4 * r] + f64[4 * r + 1] + f64[4 * r + 2] + f64[4 * r + 3];
    loops.rowSums(x.byteOffset, sums, rows, 4 * d);
    for (let r = 0; r < rows; r++) f64[4 * rows + r] = Math.fround(total(r) / d);
    loops.rowSquares(x.byteOffset, means, sums, rows, 4 * d);
    for (let r = 0; r < rows; r++) f64[5 * rows + r] = 1 / Math.sqrt(total(r) / d + eps);
    loops.normalize(x.byteOffset, y.byteOffset, w.byteOffset, b.byteOffset, means, rstds, rows, 4 * d);
  } finally {
    heap._free(scratch);
  }
}

export const LAYER_NORM_HOST: KernelFamily = {
  kernels: [
    {
      kernelName: LAYER_NORM,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { eps } = attrs as unknown as Attrs;
        const { d, rows } = rowsOf(inputs.x!);
        const mem = hostMemory(backend);
        const out = mem.alloc(inputs.x!.shape);
        const simd = d % 4 === 0 ? simdLayerNorm(backend) : null;
        if (simd) {
          simdForward(simd, backend, mem, [inputs.x!, inputs.weight!, inputs.bias!, out], rows, d, eps);
          return out;
        }
        const [x, w, b, y] = [mem.floats(inputs.x!), mem.floats(inputs.weight!), mem.floats(inputs.bias!), mem.floats(out)];
        for (let r = 0; r < rows; r++) {
          const [mean, rstd] = rowStats(x, r, d, eps);
          for (let j = 0, i = r * d; j < d; j++, i++) y[i] = (x[i] - mean) * rstd * w[j] + b[j];
        }
        return out;
      },
    },
    {
      // dx = rstd · (g − mean(g) − x̂ · mean(g · x̂)), g = dy · weight; and each row's mean and rstd [rows, 2].
      kernelName: GRAD_X,
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { eps } = attrs as unknown as Attrs;
        const { d, rows } = rowsOf(inputs.x!);
        const mem = hostMemory(backend);
        const out = mem.alloc(inputs.x!.shape);
        const statsOut = mem.alloc([rows, 2]);
        const [dy, x, w, dx, stats] = [mem.floats(inputs.dy!), mem.floats(inputs.x!), mem.floats(inputs.weight!), mem.floats(out), mem.floats(statsOut)];
        for (let r = 0; r < rows; r++) {
          const [mean, rstd] = rowStats(x, r, d, eps);
          stats[2 * r] = mean;
          stats[2 * r + 1] = rstd;
          let sumG = 0;
          let sumGX = 0;
          for (let j = 0, i = r * d; j < d; j++, i++) {
            const g = dy[i] * w[j];
            sumG += g;
            sumGX += g * (x[i] - mean) * rstd;
          }
          const [meanG, meanGX] = [sumG / d, sumGX / d];
          for (let j = 0, i = r * d; j < d; j++, i++) dx[i] = rstd * (dy[i] * w[j] - meanG - (x[i] - mean) * rstd * meanGX);
        }
        return [out, statsOut];
      },
    },
    {
      // dweight = Σ_rows dy · x̂ and dbias = Σ_rows dy, x̂ from GRAD_X's statistics.
      kernelName: GRAD_WEIGHT_BIAS,
      kernelFunc: ({ inputs, backend }) => {
        const { d, rows } = rowsOf(inputs.x!);
        const mem = hostMemory(backend);
        const [dwOut, dbOut] = [mem.alloc([d]), mem.alloc([d])];
        const [dy, x, stats] = [mem.floats(inputs.dy!), mem.floats(inputs.x!), mem.floats(inputs.stats!)];
        const [dw, db] = [new Float64Array(d), new Float64Array(d)];
        for (let r = 0; r < rows; r++) {
          const [mean, rstd] = [stats[2 * r], stats[2 * r + 1]];
          for (let j = 0, i = r * d; j < d; j++, i++) {
            dw[j] += dy[i] * (x[i] - mean) * rstd;
            db[j] += dy[i];
          }
        }
        mem.floats(dwOut).set(dw);
        mem.floats(dbOut).set(db);
        return [dwOut, dbOut];
      },
    },
  ],
};

// It needs no device: registered when this module loads, as every host kernel (kernels/adamw/).
registerKernels(HOST_BACKENDS, LAYER_NORM_HOST);
