// Test page: starts WebGPU as the engine does (worker/backend.ts: the device asked for shader-f16 where
// the adapter has it) and exposes half precision's checks (engine/testing/halfReport.ts) with the adapter's features.
import { initBackend } from '../../src/worker/backend/backend.ts';
import { halfPrecisionReport } from '../../src/engine/testing/halfReport.ts';

const out = document.getElementById('out')!;
const done = (r: unknown) => {
  (window as unknown as { __half: unknown }).__half = r;
  out.textContent = JSON.stringify(r, null, 1);
};
(async () => {
  const info = await initBackend('webgpu', ['webgpu']);
  const adapter = await navigator.gpu.requestAdapter();
  done({
    backend: info.backend,
    software: info.adapter?.software ?? null,
    adapterFeatures: [...(adapter?.features ?? [])].sort(),
    ...(await halfPrecisionReport()),
  });
})().catch((e: unknown) => done({ error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }));
