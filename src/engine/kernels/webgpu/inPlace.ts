import type * as tf from '@tensorflow/tfjs';
import { env } from '@tensorflow/tfjs';
import type { WebGPUBackend } from '@tensorflow/tfjs-backend-webgpu';
import { internals } from './backendInternals.ts';
import type { Uniform } from './program.ts';

/**
 * A compute dispatch recorded into tfjs-backend-webgpu's own command stream, for what its programs
 * cannot express: they write one fresh output and bind every input read-only. Here any binding may be
 * read_write, so one dispatch updates several existing tensors in place (AdamW's parameters and
 * moments). It goes through the backend's encoder, uniform pool and submit batching, marks its
 * buffers as owned by the pending command buffer, so tfjs neither frees nor reuses them before the
 * work is submitted, and drops the CPU copy tfjs keeps of a tensor it has read, where it writes.
 */
export interface Binding {
  name: string;
  t: tf.TensorInfo;
  /** Written by the shader (read_write); else read only. */
  write?: boolean;
  /** WGSL element type: i32 for int32 and bool tensors (tfjs stores bools as i32). */
  type?: 'f32' | 'i32';
}

const MAX_GROUPS_X = 65535;
const pipelines = new WeakMap<GPUDevice, Map<string, GPUComputePipeline>>();

/**
 * Runs `main(index)` (WGSL, with `uniforms`, the bindings by name and `localId`, the invocation's id in
 * its workgroup, as in tfjs programs: program.ts's snippets work here) for index 0 … groups·size − 1.
 * `key` must name everything baked into `code` and the bindings' names, kinds and types.
 */
export function runInPlace(
  backend: WebGPUBackend,
  key: string,
  code: string,
  bindings: Binding[],
  uniformDecl: string,
  uniforms: Uniform[],
  groups: number,
  size = 64,
): void {
  const b = internals(backend);
  const pipeline = pipelineFor(b.device, key, code, bindings, uniformDecl, size);
  const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: b.makeUniforms(uniforms.length > 0 ? uniforms : [{ type: 'int32', data: [0] }]) }];
  bindings.forEach(({ t }, i) => {
    b.uploadToGPU(t.dataId);
    entries.push({ binding: i + 1, resource: { buffer: b.tensorMap.get(t.dataId)!.resource as GPUBuffer } });
  });
  const bindGroup = b.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
  b.ensureCommandEncoderReady();
  if (!b.computePassEncoder) b.computePassEncoder = b.commandEncoder!.beginComputePass({});
  b.computePassEncoder.setPipeline(pipeline);
  b.computePassEncoder.setBindGroup(0, bindGroup);
  b.computePassEncoder.dispatchWorkgroups(Math.min(groups, MAX_GROUPS_X), Math.ceil(groups / MAX_GROUPS_X), 1);
  for (const { t, write } of bindings) {
    b.commandQueueOwnedIds.add(t.dataId as object);
    // A read caches the values on the CPU (and small ops then run there): stale once written here.
    if (write) b.tensorMap.get(t.dataId)!.values = null;
  }
  b.dispatchCountInPass++;
  if (env().getNumber('WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE') <= b.dispatchCountInPass) {
    b.endComputePassEncoder();
    b.submitQueue();
  }
}

/** Whether writing into `t` in place changes no other tensor (none shares its buffer). */
export function ownsBuffer(backend: WebGPUBackend, t: tf.TensorInfo): boolean {
  return internals(backend).tensorMap.get(t.dataId)!.refCount === 1;
}

function pipelineFor(device: GPUDevice, key: string, code: string, bindings: Binding[], uniformDecl: string, size: number): GPUComputePipeline {
  let cache = pipelines.get(device);
  if (!cache) pipelines.set(device, (cache = new Map()));
  const full = `${key}|${bindings.map((x) => `${x.name}:${x.write ? 'rw' : 'r'}:${x.type ?? 'f32'}`).join(',')}|${size}`;
  let pipeline = cache.get(full);
  if (!pipeline) {
    const decls = bindings.map(
      (x, i) => `@group(0) @binding(${i + 1}) var<storage, ${x.write ? 'read_write' : 'read'}> ${x.name} : array<${x.type ?? 'f32'}>;`,
    );
    const source = `
      struct Uniforms { ${uniformDecl || 'unused : i32,'} };
      @group(0) @binding(0) var<uniform> uniforms : Uniforms;
      ${decls.join('\n      ')}
      var<private> localId : vec3<u32>;
      ${code}
      @compute @workgroup_size(${size})
      fn _start(@builtin(local_invocation_id) lid : vec3<u32>, @builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>) {
        localId = lid;
        main(i32((wid.y * nwg.x + wid.x) * ${size}u + lid.x));
      }`;
    // An explicit layout: 'auto' would drop a binding the shader happens not to read.
    const layout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
        ...bindings.map((x, i) => ({
          binding: i + 1,
          visibility: GPUShaderStage.COMPUTE,
          buffer: { type: x.write ? ('storage' as const) : ('read-only-storage' as const) },
        })),
      ],
    });
    const module = device.createShaderModule({ code: source, label: key });
    pipeline = device.createComputePipeline({
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: '_start' },
      label: key,
    });
    cache.set(full, pipeline);
  }
  return pipeline;
}
