import type { Recording, TapeOp } from './recorder.ts';

/**
 * What each buffer of a recorded tape is to the step, and the step's shape as a comparable signature.
 *
 * - `input` i: the i-th declared input (token ids, lengths, …), rewritten before every replay;
 * - `uniform`, `constant`: written once (a dispatch's uniforms; a tensor uploaded from constant values);
 * - `temp`: made and used within the step (activations, gradients, the outputs); its content before the
 *   step never matters, so replays may put it in any buffer no other replay is using at that moment;
 * - `external` k: the k-th tensor that outlives the step (weights, moments), read or written in place.
 *
 * Two recordings of steps of the same shape must have equal signatures: the same pipelines, workgroups,
 * bindings by role, uniform bytes and constants. If a step bakes anything of its own into the GPU work
 * (a value in a uniform, an upload it did not declare, a tensor it swaps for another), the signatures
 * differ and that step is never replayed.
 */
export type Role =
  | { kind: 'input'; index: number }
  | { kind: 'uniform'; bytes: Uint8Array }
  | { kind: 'constant'; bytes: Uint8Array }
  | { kind: 'temp'; index: number }
  | { kind: 'external'; index: number };

export interface TapeRoles {
  roles: Map<GPUBuffer, Role>;
  /** Temps in order of first use. */
  temps: GPUBuffer[];
  /** Comparable form of the tape. */
  signature: SignatureItem[];
}

type SignatureItem = string | Uint8Array;

const pipelineIds = new WeakMap<object, number>();
let nextPipeline = 0;
const pipelineId = (p: object) => {
  let id = pipelineIds.get(p);
  if (id === undefined) pipelineIds.set(p, (id = nextPipeline++));
  return id;
};

/**
 * The roles of every buffer `rec`'s tape touches, given the declared inputs' and the externals' buffers
 * (in order); a string says why the tape cannot be replayed.
 */
export function tapeRoles(rec: Recording, inputs: readonly GPUBuffer[], externals: readonly GPUBuffer[]): TapeRoles | string {
  const roles = new Map<GPUBuffer, Role>();
  const temps: GPUBuffer[] = [];
  inputs.forEach((b, index) => roles.set(b, { kind: 'input', index }));
  externals.forEach((b, index) => {
    if (!roles.has(b)) roles.set(b, { kind: 'external', index });
  });
  const roleOf = (b: GPUBuffer): Role | string => {
    const known = roles.get(b);
    if (known) return known;
    let r: Role;
    const uniform = rec.uniforms.get(b);
    const upload = rec.uploads.get(b);
    if (uniform) r = { kind: 'uniform', bytes: uniform };
    else if (upload) r = { kind: 'constant', bytes: upload };
    else if (rec.acquired.has(b)) {
      r = { kind: 'temp', index: temps.length };
      temps.push(b);
    } else return 'it uses a buffer that is neither its own, an input, nor a weight it was given';
    roles.set(b, r);
    return r;
  };
  const signature: SignatureItem[] = [];
  const describe = (b: GPUBuffer): string | null => {
    const r = roleOf(b);
    if (typeof r === 'string') return null;
    if (r.kind === 'uniform' || r.kind === 'constant') {
      signature.push(r.bytes);
      return r.kind;
    }
    return `${r.kind}${r.index}`;
  };
  for (const op of rec.ops) {
    const item = describeOp(op, rec, describe);
    if (item === null) return roleOf(firstUnknown(op, rec, roles)) as string;
    signature.push(item);
  }
  return { roles, temps, signature };
}

function describeOp(op: TapeOp, rec: Recording, describe: (b: GPUBuffer) => string | null): string | null {
  if (op.kind === 'copy') {
    const src = describe(op.src);
    const dst = describe(op.dst);
    return src === null || dst === null ? null : `copy ${src}@${op.srcOffset} → ${dst}@${op.dstOffset} ×${op.size}`;
  }
  const group = rec.bindGroups.get(op.bindGroup)!;
  const parts: string[] = [];
  for (const e of group.entries) {
    const what = describe(e.buffer);
    if (what === null) return null;
    parts.push(`${e.binding}:${what}@${e.offset}+${e.size ?? 'all'}`);
  }
  return `dispatch p${pipelineId(op.pipeline)} [${op.x},${op.y},${op.z}] ${parts.join(' ')}`;
}

function firstUnknown(op: TapeOp, rec: Recording, roles: Map<GPUBuffer, Role>): GPUBuffer {
  const buffers = op.kind === 'copy' ? [op.src, op.dst] : rec.bindGroups.get(op.bindGroup)!.entries.map((e) => e.buffer);
  return buffers.find((b) => !roles.has(b))!;
}

/** Whether two signatures are the same step; else where they first differ. */
export function sameSignature(a: readonly SignatureItem[], b: readonly SignatureItem[]): true | string {
  if (a.length !== b.length) return `${a.length} against ${b.length} items`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === 'string' || typeof y === 'string') {
      if (x !== y) return `item ${i}: ${String(x)} against ${String(y)}`;
    } else if (x.length !== y.length || x.some((v, k) => v !== y[k])) return `item ${i}: different bytes`;
  }
  return true;
}
