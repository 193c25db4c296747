/**
 * The dropout key scheme every path shares (the padded reference, the host kernel, the fused WebGPU
 * kernel): element (row r, column c) of a site's [rows, cols] tensor is kept when
 *   h = lowbias32(lowbias32(lowbias32(lowbias32(seed ^ GOLDEN) ^ candidate[r]) ^ position[r]) + c·GOLDEN)
 * has h >>> 8 ≥ ceil(rate · 2^24), and kept values are scaled by fround(1 / (1 − rate)). The keys name
 * what the element is (the step's candidate, a token or an attention (head, query) row, a feature or key
 * column), not where it sits in a tensor, so packed rows, padded rows and any split of a step's candidates
 * into chunks or workers draw the same mask for the same element.
 */
import { lowbias32 } from '../../shared/rng.ts';

export const GOLDEN = 0x9e3779b9;

/** What keys each row of a [rows, cols] tensor: the candidate's index in the step, and a position inside it. */
export interface DropoutRows {
  candidate: Int32Array;
  position: Int32Array;
}

/**
 * Row keys of a padded tensor, as a rule rather than a list (the WebGPU kernel computes them): row r is
 * candidate first + ⌊r / perCandidate⌋, and q = r mod perCandidate is position ⌊q / inner⌋·stride + q mod inner.
 * Token rows [B·T]: perCandidate = inner = T. Attention rows [B·H·Tq]: perCandidate = H·Tq, inner = Tq,
 * stride = maxLen (head h's query i is position h·maxLen + i, as the packed forward keys them).
 */
export interface DropoutGrid {
  first: number;
  perCandidate: number;
  inner: number;
  stride: number;
}

/** The grid's keys of `rows` rows, listed. */
export function gridRows(grid: DropoutGrid, rows: number): DropoutRows {
  const candidate = new Int32Array(rows);
  const position = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    const q = r % grid.perCandidate;
    candidate[r] = grid.first + Math.floor(r / grid.perCandidate);
    position[r] = Math.floor(q / grid.inner) * grid.stride + (q % grid.inner);
  }
  return { candidate, position };
}

/** The hash of a row's column 0 (columns add Weyl steps of GOLDEN to it). */
export function rowHash(seed: number, candidate: number, position: number): number {
  return lowbias32(lowbias32(lowbias32(seed ^ GOLDEN) ^ candidate) ^ position);
}

/** An element is kept when its hash's top 24 bits are at least this. */
export const keepCut = (rate: number): number => Math.ceil(rate * 16777216);

/** What a kept element is multiplied by, in float32 as every path multiplies. */
export const keepScale = (rate: number): number => Math.fround(1 / (1 - rate));

/** The mask times keepScale of a site's [rows, cols] tensor: the plain composition's factor, and the kernels' reference. */
export function dropoutScales(seed: number, rate: number, rows: DropoutRows, cols: number): Float32Array {
  const out = new Float32Array(rows.candidate.length * cols);
  const cut = keepCut(rate);
  const scale = keepScale(rate);
  for (let r = 0; r < rows.candidate.length; r++) {
    const row = rowHash(seed, rows.candidate[r], rows.position[r]);
    for (let c = 0; c < cols; c++) out[r * cols + c] = lowbias32((row + Math.imul(c, GOLDEN)) | 0) >>> 8 >= cut ? scale : 0;
  }
  return out;
}
