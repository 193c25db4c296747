import { describe, expect, it } from 'vitest';
import type { Recording } from './recorder.ts';
import { sameSignature, tapeRoles } from './tapeRoles.ts';

/** Stand-ins for GPU objects: the roles and signatures only compare identities, sizes and bytes. */
const buffer = (size = 64, usage = 0x80 | 0x4 | 0x8) => ({ size, usage }) as unknown as GPUBuffer;
const pipeline = () => ({}) as unknown as GPUComputePipeline;

/** A recording of one step: an input and a weight read, a temp written, a uniform and a constant. */
function recording(p: { pipelines: GPUComputePipeline[]; weight: GPUBuffer; uniformByte?: number; constantByte?: number; tempReused?: boolean }) {
  const input = buffer();
  const uniform = buffer(16, 0x40 | 0x8);
  const constant = buffer(4);
  const t1 = buffer();
  const t2 = p.tempReused ? t1 : buffer();
  const rec: Recording = {
    ops: [],
    bindGroups: new Map(),
    uniforms: new Map([[uniform, Uint8Array.of(p.uniformByte ?? 1, 0, 0, 0)]]),
    uploads: new Map([
      [input, Uint8Array.of(9, 9, 9, 9)],
      [constant, Uint8Array.of(p.constantByte ?? 7)],
    ]),
    acquired: new Set([input, uniform, constant, t1, t2]),
    held: new Set([input, uniform, constant]),
    failure: null,
  };
  const dispatch = (pl: GPUComputePipeline, buffers: GPUBuffer[]) => {
    const bindGroup = {} as unknown as GPUBindGroup;
    rec.bindGroups.set(bindGroup, {
      layout: {} as GPUBindGroupLayout,
      entries: buffers.map((b, binding) => ({ binding, buffer: b, offset: 0, size: undefined })),
    });
    rec.ops.push({ kind: 'dispatch', pipeline: pl, bindGroup, x: 4, y: 1, z: 1 });
  };
  dispatch(p.pipelines[0], [t1, input, p.weight, uniform]);
  rec.ops.push({ kind: 'copy', src: t1, srcOffset: 0, dst: t2, dstOffset: 0, size: 64 });
  dispatch(p.pipelines[1], [p.weight, t2, constant, uniform]);
  return { rec, input, t1, t2, uniform, constant };
}

describe('tape roles', () => {
  const pipelines = [pipeline(), pipeline()];
  const weight = buffer();

  it('names each buffer by what it is to the step', () => {
    const { rec, input, t1, t2, uniform, constant } = recording({ pipelines, weight });
    const roles = tapeRoles(rec, [input], [weight]);
    if (typeof roles === 'string') throw new Error(roles);
    expect(roles.roles.get(input)).toEqual({ kind: 'input', index: 0 });
    expect(roles.roles.get(weight)).toEqual({ kind: 'external', index: 0 });
    expect(roles.roles.get(t1)).toEqual({ kind: 'temp', index: 0 });
    expect(roles.roles.get(t2)).toEqual({ kind: 'temp', index: 1 });
    expect(roles.roles.get(uniform)?.kind).toBe('uniform');
    expect(roles.roles.get(constant)?.kind).toBe('constant');
    expect(roles.temps).toEqual([t1, t2]);
  });

  it('refuses a tape that touches a buffer it neither made nor was given', () => {
    const { rec, input } = recording({ pipelines, weight });
    expect(tapeRoles(rec, [input], [])).toMatch(/neither its own, an input, nor a weight/);
  });

  it('finds two recordings of the same step equal, and any difference in their GPU work', () => {
    const sig = (p: Parameters<typeof recording>[0]) => {
      const { rec, input } = recording(p);
      const r = tapeRoles(rec, [input], [p.weight]);
      if (typeof r === 'string') throw new Error(r);
      return r.signature;
    };
    const base = sig({ pipelines, weight });
    // Other buffers, other input values: the same step.
    expect(sameSignature(base, sig({ pipelines, weight }))).toBe(true);
    expect(sameSignature(base, sig({ pipelines, weight, uniformByte: 2 }))).toMatch(/different bytes/);
    expect(sameSignature(base, sig({ pipelines, weight, constantByte: 8 }))).toMatch(/different bytes/);
    expect(sameSignature(base, sig({ pipelines: [pipelines[0], pipeline()], weight }))).toMatch(/dispatch p/);
    expect(sameSignature(base, sig({ pipelines, weight, tempReused: true }))).toMatch(/temp0.*temp1/);
  });
});
