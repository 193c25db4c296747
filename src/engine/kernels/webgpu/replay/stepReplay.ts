import * as tf from '@tensorflow/tfjs';
import { type BackendInternals, internals } from '../backendInternals.ts';
import { ReplayArena } from './arena.ts';
import { type Capture, type OutputSpec, buildCapture, copyOutputs, replayCapture, settleHeld } from './capture.ts';
import { type KernelTime, profileCapture } from './profileCapture.ts';
import { type Recording, bufferOf, startRecording } from './recorder.ts';
import { type TapeRoles, sameSignature, tapeRoles } from './tapeRoles.ts';

/**
 * Record once, replay every step (WebGPU). `run(key, inputs, body)` computes `body` on tensors made from
 * `inputs`; the first time a key is seen the body runs through tfjs while its GPU work is recorded, the
 * second time it is recorded again and the two recordings compared, and from then on, if they agreed,
 * the step is replayed: its inputs written into the buffers the recording used, its dispatches encoded
 * again with the bind groups made once. `key` must name everything the body's GPU work depends on
 * besides the inputs' values and the externals' contents (the shapes); the comparison catches what it
 * does not (a value baked into a uniform, an upload not declared as an input), and such a step is simply
 * never replayed. The body stays the reference: with replay off (the profile's `replaySteps`), or for a
 * step it cannot replay, the same body runs through tfjs.
 */
export interface HostInput {
  data: Int32Array | Float32Array;
  shape: number[];
}

export interface StepIO {
  inputs: readonly HostInput[];
  /** Tensors that outlive the step and that its work may read or write in place (weights, moments). */
  externals: readonly tf.Tensor[];
}

/** GPU ms of a captured training step and of each kind of kernel in it. */
export interface ReplayProfile {
  shape: string;
  stepMs: number;
  kernels: KernelTime[];
}

/** Recordings of a key that disagree (or cannot be replayed) this many times: the key is not recorded again. */
const ATTEMPTS = 3;
/** Captures kept, least recently replayed dropped first (their memory is mostly the shared arena). */
export const MAX_CAPTURES = 24;

interface Entry {
  capture: Capture | null;
  /** The previous recording's roles and signature, waiting for a second one to agree. */
  pending: TapeRoles | null;
  attempts: number;
  off: string | null;
  replays: number;
}

/** What the replays did so far (for the bench's counters and the docs' figures). */
export interface ReplayStats {
  recordings: number;
  replays: number;
  captures: number;
  /** Bytes of the captures' own buffers (uniforms, constants) plus the shared arena. */
  bytes: number;
  /** Engine-thread ms spent replaying (writing inputs, encoding, submitting). */
  replayMs: number;
  /** Keys that will not be replayed, and why (the first few). */
  refused: string[];
}

export class StepReplay {
  private readonly entries = new Map<string, Entry>();
  private readonly arena: ReplayArena;
  private scratch = new Uint8Array(0);
  private readonly stats = { recordings: 0, replays: 0, replayMs: 0 };
  private readonly refused: string[] = [];

  constructor(private readonly b: BackendInternals) {
    this.arena = new ReplayArena(b.device);
  }

  run(key: string, io: StepIO, body: (inputs: tf.Tensor[]) => tf.Tensor[]): tf.Tensor[] {
    let entry = this.entries.get(key);
    if (entry?.capture) {
      const t0 = performance.now();
      const out = this.replay(entry.capture, io);
      if (out) {
        this.stats.replays++;
        entry.replays++;
        this.stats.replayMs += performance.now() - t0;
        // Most recently used last.
        this.entries.delete(key);
        this.entries.set(key, entry);
        return out;
      }
      this.drop(key);
      entry = undefined;
    }
    if (!entry) this.entries.set(key, (entry = { capture: null, pending: null, attempts: 0, off: null, replays: 0 }));
    if (entry.off) return runPlain(io, body);
    return this.record(key, entry, io, body);
  }

  /** Every capture dropped and its memory freed (a run's end: its weights go away). */
  clear(): void {
    for (const key of [...this.entries.keys()]) this.drop(key);
    this.arena.destroy();
  }

  /** Where the GPU time of the training step replayed most goes (benchmarks only: see profileCapture). */
  async profile(): Promise<ReplayProfile | null> {
    const train = [...this.entries].filter(([key, e]) => e.capture?.lastInputs && key.startsWith('train'));
    if (train.length === 0) return null;
    const [key, entry] = train.reduce((a, x) => (x[1].replays > a[1].replays ? x : a));
    const times = await profileCapture(this.b, entry.capture!, this.arena);
    return times && { shape: key, ...times };
  }

  summary(): ReplayStats {
    const captures = [...this.entries.values()].filter((e) => e.capture);
    return {
      ...this.stats,
      captures: captures.length,
      bytes: captures.reduce((n, e) => n + e.capture!.keptBytes, 0) + this.arena.bytes(),
      refused: [...this.refused],
    };
  }

  private replay(cap: Capture, io: StepIO): tf.Tensor[] | null {
    if (this.scratch.length < cap.stagedBytes) this.scratch = new Uint8Array(cap.stagedBytes);
    return replayCapture(
      this.b,
      cap,
      this.arena,
      io.inputs.map((h) => h.data),
      this.scratch,
    );
  }

  private record(key: string, entry: Entry, io: StepIO, body: (inputs: tf.Tensor[]) => tf.Tensor[]): tf.Tensor[] {
    const b = this.b;
    this.stats.recordings++;
    const recorder = startRecording(b);
    let inputs: tf.Tensor[] = [];
    let outs: tf.Tensor[] = [];
    let result: tf.Tensor[];
    let inputBuffers: GPUBuffer[];
    let outputs: Array<OutputSpec & { buffer: GPUBuffer }>;
    try {
      inputs = io.inputs.map(toTensor);
      // Uploaded now, into fresh buffers: the replay rewrites exactly these.
      inputBuffers = inputs.map((t) => bufferOf(b, t));
      outs = tf.tidy(() => body(inputs));
      recorder.stopTape();
      outputs = outs.map((t) => ({ shape: t.shape, dtype: t.dtype, bytes: 4 * t.size, buffer: bufferOf(b, t) }));
      result = copyOutputs(b, outputs);
    } finally {
      tf.dispose([...inputs, ...outs]);
      recorder.finish();
    }
    const externals = io.externals.map((tensor) => ({ tensor, buffer: bufferOf(b, tensor) }));
    const roles = this.judge(
      recorder.rec,
      inputBuffers,
      outputs,
      externals.map((e) => e.buffer),
    );
    if (typeof roles === 'string') {
      settleHeld(b, recorder.rec, new Set());
      this.refuse(key, entry, roles);
      return result;
    }
    const agreed = entry.pending ? sameSignature(entry.pending.signature, roles.signature) : null;
    if (agreed !== true) {
      settleHeld(b, recorder.rec, new Set());
      // This recording is the one the next is compared with.
      entry.pending = roles;
      if (agreed !== null) this.refuse(key, entry, `two recordings differ (${agreed})`);
      return result;
    }
    const capture = buildCapture(b, recorder.rec, roles, { inputs: inputBuffers, outputs, externals }, this.arena);
    settleHeld(b, recorder.rec, new Set(capture.kept));
    entry.capture = capture;
    entry.pending = null;
    this.evict();
    return result;
  }

  /** The roles of a finished recording, or why it cannot be replayed. */
  private judge(rec: Recording, inputs: GPUBuffer[], outputs: Array<{ buffer: GPUBuffer }>, externals: GPUBuffer[]) {
    if (rec.failure) return rec.failure;
    const bm = this.b.bufferManager;
    for (const buffer of rec.acquired) {
      if (bm.usedBuffers.get(`${buffer.size}_${buffer.usage}`)?.includes(buffer)) return 'a tensor it made outlives it';
    }
    const roles = tapeRoles(rec, inputs, externals);
    if (typeof roles === 'string') return roles;
    for (const o of outputs) {
      const r = roles.roles.get(o.buffer);
      if (!r || (r.kind !== 'temp' && r.kind !== 'input')) return 'an output is not computed by its GPU work';
    }
    return roles;
  }

  private refuse(key: string, entry: Entry, why: string): void {
    entry.attempts++;
    if (entry.attempts < ATTEMPTS) return;
    entry.off = why;
    entry.pending = null;
    if (this.refused.length < 8) this.refused.push(`${key}: ${why}`);
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (e?.capture) {
      for (const k of e.capture.kept) k.destroy();
      this.arena.release(e.capture.leased);
    }
    this.entries.delete(key);
  }

  private evict(): void {
    const captured = [...this.entries].filter(([, e]) => e.capture);
    for (let i = 0; i < captured.length - MAX_CAPTURES; i++) this.drop(captured[i][0]);
  }
}

const toTensor = (h: HostInput) => tf.tensor(h.data, h.shape, h.data instanceof Int32Array ? 'int32' : 'float32');

/**
 * The same step without replay: its inputs uploaded, the body run through tfjs (the reference, and the
 * path where replay is off). The inputs go to the GPU first, as a recording's do, so that tfjs runs the
 * same kernels on them (it runs small ops on the CPU while their inputs are there).
 */
export function runPlain(io: StepIO, body: (inputs: tf.Tensor[]) => tf.Tensor[]): tf.Tensor[] {
  const inputs = io.inputs.map(toTensor);
  const b = internals(tf.backend());
  for (const t of inputs) bufferOf(b, t);
  try {
    return tf.tidy(() => body(inputs));
  } finally {
    tf.dispose(inputs);
  }
}

const replays = new WeakMap<object, StepReplay>();

/** The replay cache of the active tfjs backend (WebGPU). */
export function stepReplay(): StepReplay {
  const backend = tf.backend();
  let r = replays.get(backend);
  if (!r) replays.set(backend, (r = new StepReplay(internals(backend))));
  return r;
}

/** The active backend's replay figures, or null where nothing was replayed or recorded (or no backend runs yet). */
export function replaySummary(): ReplayStats | null {
  const name = tf.getBackend();
  const backend = name ? tf.findBackend(name) : null;
  return backend ? (replays.get(backend)?.summary() ?? null) : null;
}
