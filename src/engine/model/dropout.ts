import * as tf from '@tensorflow/tfjs';
import type { BackendProfile } from '../backend/profile.ts';
import { mixSeed } from '../shared/rng.ts';
import { type DropoutGrid, type DropoutRows, dropoutScales, gridRows } from '../kernels/dropout/keys.ts';
import { hostDropout } from '../kernels/dropout/host.ts';
import { type DropoutSeed, fusedDropout } from '../kernels/dropout/webgpu.ts';

/**
 * What keys the rows of a site's tensor (every dimension but the last; columns are the last), with
 * chunk-local candidates: listed (the packed forward's rows), or by a grid (the padded forward's rows,
 * which the fused WebGPU kernel computes on the device). kernels/dropout/keys.ts has the scheme.
 */
export type DropoutKeys = DropoutRows | Omit<DropoutGrid, 'first'>;

/** One dropout of the forward (a layer's attention probabilities, its FFN output, …), with its own seed. */
export interface DropoutSite {
  apply(x: tf.Tensor, keys: DropoutKeys): tf.Tensor;
}

export interface DropoutOptions {
  /** The chunk's first candidate's index in the step: the keys' candidates are the step's. */
  firstCandidate?: number;
}

/**
 * Seeded dropout. Each site draws its masks from (seed, site counter), each element's from its keys
 * (the step's candidate, its position, its column: kernels/dropout/keys.ts), so every path draws the same
 * mask for the same element: the padded reference (its plain composition, or the host kernel on CPU),
 * the packed forward (WASM's host kernel) and the fused WebGPU kernel, in any split of the step's
 * candidates into chunks or workers, and in the micro-batched step's two passes. A site takes its counter
 * once, however many tensors it applies to (packed attention's per-candidate blocks).
 */
export class SeededDropout {
  private calls = 0;
  private readonly fused: boolean;
  private readonly host: boolean;
  private readonly firstCandidate: number;
  /**
   * `seed`: a number, or (fused WebGPU kernel only) the step's seed on the device mixed with a path of
   * constants, so that no value of the step itself reaches the GPU work (replay/stepReplay.ts).
   */
  constructor(
    readonly rate: number,
    private readonly seed: number | DropoutSeed,
    profile: BackendProfile,
    { firstCandidate = 0 }: DropoutOptions = {},
  ) {
    this.fused = profile.fused.dropout;
    this.host = profile.hostKernels;
    this.firstCandidate = firstCandidate;
    if (typeof seed !== 'number' && !this.fused) throw new Error('a seed on the device needs the fused dropout kernel');
  }

  /** The forward's next site: sites are taken in the same order on every replay of the pass. */
  site(): DropoutSite {
    const siteSeed = mixInto(this.seed, this.calls++);
    return { apply: (x, keys) => (this.rate <= 0 ? x : this.apply(x, siteSeed, keys)) };
  }

  private apply(x: tf.Tensor, seed: number | DropoutSeed, keys: DropoutKeys): tf.Tensor {
    const first = this.firstCandidate;
    const listed = 'candidate' in keys;
    // The fused kernel (WebGPU) draws the mask on the device from the grid.
    if (this.fused && !listed) return fusedDropout(x, typeof seed === 'number' ? { base: seed, path: [] } : seed, this.rate, { ...keys, first });
    if (typeof seed !== 'number') throw new Error('a seed on the device needs the fused kernel and keys by grid');
    const cols = x.shape[x.shape.length - 1];
    const rows = listed ? { candidate: keys.candidate.map((b) => b + first), position: keys.position } : gridRows({ ...keys, first }, x.size / cols);
    if (this.host) return tf.reshape(hostDropout(tf.reshape(x, [-1, cols]), seed, this.rate, rows), x.shape);
    // The plain composition, the reference: x times the mask (over keep) made on the host.
    return tf.mul(x, tf.tensor(dropoutScales(seed, this.rate, rows, cols), x.shape));
  }
}

/** mixSeed(seed, k), on the host, or appended to a device seed's path. */
function mixInto(seed: number | DropoutSeed, k: number): number | DropoutSeed {
  return typeof seed === 'number' ? mixSeed(seed, k) : { base: seed.base, path: [...seed.path, k] };
}

/**
 * The dropout of a chunk of a step whose first candidate is the step's `first`-th. Every chunk of the step
 * shares the step's seed (its keys name the step's candidates), so any split of the candidates
 * (micro-batches, workers) draws the same masks on every backend. A step seed on the device (an int32
 * tensor; fused WebGPU dropout) draws the masks a number would.
 */
export function dropoutForChunk(rate: number, stepSeed: number | tf.Tensor, first: number, profile: BackendProfile): SeededDropout {
  const seed = typeof stepSeed === 'number' ? mixSeed(stepSeed, STEP_KEY) : { base: stepSeed, path: [STEP_KEY] };
  return new SeededDropout(rate, seed, profile, { firstCandidate: first });
}

/** Keeps the step's dropout seed apart from other seeds mixed from it. */
const STEP_KEY = -1;
