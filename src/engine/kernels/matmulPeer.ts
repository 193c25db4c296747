/**
 * A second thread for the big plain products of a training step. tfjs-wasm 4.22 runs each product on
 * one thread (it never hands XNNPACK its thread pool), so on a 2-core machine half the CPU idles while
 * the engine trains. Through this link the engine copies the lower rows of A and all of B into shared
 * memory, the peer thread multiplies them while the engine multiplies the upper rows, and the engine
 * waits for the lower rows of the result. Row i of a product depends only on row i of A and on B, and
 * both threads run the same XNNPACK kernel, so the split changes no number.
 *
 * The link is a control block (state, m, k, n) and a growable data block [A rows | B | C rows], both
 * SharedArrayBuffers; the two threads hand the job over with Atomics. DOM-free: the engine worker and
 * Node tests use it alike.
 */

const STATE = 0;
const DIMS = 1; // m, k, n at 1..3
const IDLE = 0;
const JOB = 1;
const DONE = 2;
const FAILED = 3;

export interface MatMulLink {
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
}

/** Computes a (m×k) · b (k×n) into out (m×n), all row-major. */
export type ProductFn = (a: Float32Array, b: Float32Array, m: number, k: number, n: number, out: Float32Array) => void;

/** Bytes the data block may grow to: a product that needs more runs on the engine's thread alone. */
const MAX_DATA_BYTES = 256 * 2 ** 20;
const INITIAL_DATA_BYTES = 4 * 2 ** 20;
/** Longer than any half product takes; past it the peer counts as gone and the engine computes alone. */
const WAIT_LIMIT_MS = 60_000;

/** A link, or null where shared memory is missing (a page that is not cross-origin isolated). */
export function createMatMulLink(): MatMulLink | null {
  if (typeof SharedArrayBuffer === 'undefined') return null;
  try {
    const Growable = SharedArrayBuffer as unknown as new (bytes: number, opts: { maxByteLength: number }) => SharedArrayBuffer;
    return { control: new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT), data: new Growable(INITIAL_DATA_BYTES, { maxByteLength: MAX_DATA_BYTES }) };
  } catch {
    return null;
  }
}

const floatsOf = (m: number, k: number, n: number) => m * k + k * n + m * n;

/** The engine's side: one job at a time, started, then finished. */
export class MatMulPeer {
  private readonly control: Int32Array;
  private dead = false;
  private busy = false;

  /** `wake` runs after a job is posted: Node tests serve it on the same thread there. */
  constructor(
    private readonly link: MatMulLink,
    private readonly wake: () => void = () => {},
  ) {
    this.control = new Int32Array(link.control);
  }

  get alive(): boolean {
    return !this.dead;
  }

  /**
   * Hands the peer aRows (m×k) · b (k×n). False when it cannot take it (gone, busy, or too big):
   * then the caller computes everything itself. The inputs are copied, so they may change after.
   */
  start(aRows: Float32Array, b: Float32Array, m: number, k: number, n: number): boolean {
    if (this.dead || this.busy || !this.fits(floatsOf(m, k, n) * 4)) return false;
    const data = new Float32Array(this.link.data, 0, floatsOf(m, k, n));
    data.set(aRows.subarray(0, m * k), 0);
    data.set(b.subarray(0, k * n), m * k);
    this.control.set([m, k, n], DIMS);
    this.busy = true;
    Atomics.store(this.control, STATE, JOB);
    Atomics.notify(this.control, STATE);
    this.wake();
    return true;
  }

  /** Waits for the started job: its m×n result (a view valid until the next start), or null if the peer failed. */
  finish(): Float32Array | null {
    this.busy = false;
    const deadline = Date.now() + WAIT_LIMIT_MS;
    let state = Atomics.load(this.control, STATE);
    while (state === JOB && Date.now() < deadline) {
      Atomics.wait(this.control, STATE, JOB, 1000);
      state = Atomics.load(this.control, STATE);
    }
    if (state !== DONE) {
      this.dead = true;
      return null;
    }
    Atomics.store(this.control, STATE, IDLE);
    const [m, k, n] = this.control.subarray(DIMS, DIMS + 3);
    return new Float32Array(this.link.data, (m * k + k * n) * 4, m * n);
  }

  private fits(bytes: number): boolean {
    const data = this.link.data as SharedArrayBuffer & { grow(n: number): void; maxByteLength: number };
    if (bytes <= data.byteLength) return true;
    if (bytes > data.maxByteLength) return false;
    data.grow(Math.min(data.maxByteLength, Math.max(bytes, 2 * data.byteLength)));
    return true;
  }
}

/** The peer's side: serves the job posted, if one is; true when it served one. */
export function serveMatMul(link: MatMulLink, product: ProductFn): boolean {
  const control = new Int32Array(link.control);
  if (Atomics.load(control, STATE) !== JOB) return false;
  const [m, k, n] = control.subarray(DIMS, DIMS + 3);
  try {
    const floats = new Float32Array(link.data, 0, floatsOf(m, k, n));
    product(floats.subarray(0, m * k), floats.subarray(m * k, m * k + k * n), m, k, n, floats.subarray(m * k + k * n));
    Atomics.store(control, STATE, DONE);
  } catch {
    Atomics.store(control, STATE, FAILED);
  }
  Atomics.notify(control, STATE);
  return true;
}

type WaitAsync = (a: Int32Array, index: number, value: number) => { async: boolean; value: Promise<unknown> | string };

/**
 * The peer's loop: serves jobs as they come, waiting with Atomics.waitAsync in between, so the
 * worker's own messages (scoring batches) still get through.
 */
export async function serveMatMuls(link: MatMulLink, product: ProductFn): Promise<never> {
  const control = new Int32Array(link.control);
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
  for (;;) {
    const state = Atomics.load(control, STATE);
    if (state === JOB) serveMatMul(link, product);
    else {
      const w = waitAsync(control, STATE, state);
      if (w.async) await w.value;
    }
  }
}
