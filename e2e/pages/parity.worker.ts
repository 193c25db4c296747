import * as tf from '@tensorflow/tfjs';
import { parseFixture } from '../../src/engine/testing/loadFixture.ts';
import { parityReport } from '../../src/engine/testing/parityReport.ts';
import { initBackend } from '../../src/worker/backend/backend.ts';
import type { BackendName } from '../../src/worker/backend/backendInfo.ts';

// The fixture files are served under /__fixtures__/ by the Playwright test (from EORM_FIXTURES or the repo copy).
async function fetchBytes(name: string): Promise<Uint8Array> {
  const r = await fetch(`/__fixtures__/${name}`);
  if (!r.ok) throw new Error(`fixture ${name}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

async function main(asked: BackendName) {
  const backend = await initBackend(asked);
  const text = async (n: string) => new TextDecoder().decode(await fetchBytes(n));
  const fx = parseFixture({
    configJson: await text('config.json'),
    caseJson: await text('case.json'),
    weights: await fetchBytes('weights.safetensors'),
    expected: await fetchBytes('expected.safetensors'),
  });
  const t0 = performance.now();
  const report = await parityReport(fx);
  self.postMessage({ backend: tf.getBackend(), info: backend, ...report, seconds: (performance.now() - t0) / 1000 });
}

self.addEventListener('message', (e: MessageEvent<{ backend: BackendName }>) => {
  main(e.data.backend).catch((err: unknown) => self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) }));
});
