/**
 * The half-precision product's WGSL (webgpu.ts runs it): C = op(A)·op(B) (+ bias) over [batch,] M×K·K×N,
 * float32 tensors in and out. Each workgroup of 256 lanes computes a 64×64 tile of C, 4×4 per lane, over
 * K in steps of 16: operands are converted to the element type `H` as they enter workgroup memory (half
 * its bytes at f16), multiplied as dot products of four (in H), each dot added to a float32 accumulator
 * (the accumulation over K is where f16 would lose the most). An operand beyond `limit` (f16's largest,
 * 65504, or not finite) cannot enter f16: the tile's outputs become NaN, so the step's gradient norm is
 * not finite and the loss scaler skips the step and halves the scale, as AMP does on overflow.
 *
 * `half` false gives the same kernel in f32 (H = f32, no extension): WebGPU without shader-f16
 * (SwiftShader) runs it to check the kernel's indexing against tf.matMul; the f16 rounding itself is
 * checked on the host (host.ts), and on a GPU against the bound in parity.ts.
 */
export const TILE = 64;
export const TILE_K = 16;
export const LANES = 256;

export interface HalfMatMulVariant {
  transposeA: boolean;
  transposeB: boolean;
  bias: boolean;
  /** f16 (needs shader-f16), else f32. */
  half: boolean;
}

/** The uniforms' declaration (order as webgpu.ts writes them). */
export const UNIFORMS = 'M : i32, K : i32, N : i32, batchA : i32, batchB : i32, tilesM : i32, tilesN : i32, limit : f32,';

/** A key naming everything baked into the code. */
export const variantKey = (v: HalfMatMulVariant) =>
  `eorm_half_matmul_${v.half ? 'f16' : 'f32'}_${v.transposeA ? 't' : 'n'}${v.transposeB ? 't' : 'n'}${v.bias ? '_bias' : ''}`;

/**
 * Lane e of 1024 loads tile element (k, row) of an operand: consecutive lanes take consecutive addresses
 * (along k where the operand is row-major in k, along the row where it is k-major), so loads coalesce.
 */
const tileElement = (kMajor: boolean) => (kMajor ? 'let kk = e / 64; let rr = e % 64;' : 'let kk = e % 16; let rr = e / 16;');

export function halfMatMulCode(v: HalfMatMulVariant): { enables: string; code: string } {
  const H = v.half ? 'f16' : 'f32';
  // A is op(A) [M, K]: stored [K, M] (k-major) when transposed. B is op(B) [K, N]: stored [N, K] when transposed.
  const aIndex = v.transposeA ? 'k * uniforms.M + r' : 'r * uniforms.K + k';
  const bIndex = v.transposeB ? 'r * uniforms.K + k' : 'k * uniforms.N + r';
  const code = `
  var<workgroup> As : array<${H}, ${TILE_K * TILE}>;
  var<workgroup> Bs : array<${H}, ${TILE_K * TILE}>;
  var<workgroup> poisoned : atomic<u32>;

  fn toH(x : f32) -> ${H} {
    if (!(abs(x) <= uniforms.limit)) {
      atomicStore(&poisoned, 1u);
      return ${H}(0.0);
    }
    return ${H}(x);
  }
  fn loadA(b : i32, r : i32, k : i32) -> f32 {
    if (r >= uniforms.M || k >= uniforms.K) { return 0.0; }
    return A[b * uniforms.batchA + ${aIndex}];
  }
  fn loadB(b : i32, r : i32, k : i32) -> f32 {
    if (r >= uniforms.N || k >= uniforms.K) { return 0.0; }
    return B[b * uniforms.batchB + ${bIndex}];
  }
  fn column(tile : ptr<workgroup, array<${H}, ${TILE_K * TILE}>>, k : i32, r : i32) -> vec4<${H}> {
    return vec4<${H}>((*tile)[k * ${TILE} + r], (*tile)[(k + 1) * ${TILE} + r], (*tile)[(k + 2) * ${TILE} + r], (*tile)[(k + 3) * ${TILE} + r]);
  }

  fn main(index : i32) {
    let lane = i32(localId.x);
    let wg = index / ${LANES};
    let perBatch = uniforms.tilesM * uniforms.tilesN;
    let b = wg / perBatch;
    let t = wg % perBatch;
    let m0 = (t / uniforms.tilesN) * ${TILE};
    let n0 = (t % uniforms.tilesN) * ${TILE};
    let tr = lane / 16;
    let tc = lane % 16;
    var acc : array<array<f32, 4>, 4>;
    if (lane == 0) { atomicStore(&poisoned, 0u); }
    workgroupBarrier();
    for (var k0 = 0; k0 < uniforms.K; k0 = k0 + ${TILE_K}) {
      for (var i = 0; i < 4; i = i + 1) {
        let e = lane + i * ${LANES};
        {
          ${tileElement(v.transposeA)}
          As[kk * ${TILE} + rr] = toH(loadA(b, m0 + rr, k0 + kk));
        }
        {
          ${tileElement(!v.transposeB)}
          Bs[kk * ${TILE} + rr] = toH(loadB(b, n0 + rr, k0 + kk));
        }
      }
      workgroupBarrier();
      for (var kk = 0; kk < ${TILE_K}; kk = kk + 4) {
        var a : array<vec4<${H}>, 4>;
        var bv : array<vec4<${H}>, 4>;
        for (var i = 0; i < 4; i = i + 1) {
          a[i] = column(&As, kk, tr * 4 + i);
          bv[i] = column(&Bs, kk, tc * 4 + i);
        }
        for (var i = 0; i < 4; i = i + 1) {
          for (var j = 0; j < 4; j = j + 1) {
            acc[i][j] = acc[i][j] + f32(dot(a[i], bv[j]));
          }
        }
      }
      workgroupBarrier();
    }
    let bad = atomicLoad(&poisoned) != 0u;
    var nanBits = 0x7fc00000u; // a var: a constant NaN is a shader-creation error
    for (var i = 0; i < 4; i = i + 1) {
      for (var j = 0; j < 4; j = j + 1) {
        let m = m0 + tr * 4 + i;
        let n = n0 + tc * 4 + j;
        if (m < uniforms.M && n < uniforms.N) {
          var y = acc[i][j]${v.bias ? ' + BIAS[n]' : ''};
          if (bad) { y = bitcast<f32>(nanBits); }
          C[(b * uniforms.M + m) * uniforms.N + n] = y;
        }
      }
    }
  }`;
  return { enables: v.half ? 'enable f16;' : '', code };
}
