// Test page: runs the fixture parity checks in a worker (as the app's engine runs) on the backend named
// by ?backend= and exposes the report.
const worker = new Worker(new URL('./parity.worker.ts', import.meta.url), { type: 'module' });
const out = document.getElementById('out')!;
worker.addEventListener('message', (e: MessageEvent) => {
  (window as unknown as { __parity: unknown }).__parity = e.data;
  out.textContent = JSON.stringify(e.data, null, 1);
});
worker.addEventListener('error', (e) => {
  (window as unknown as { __parity: unknown }).__parity = { error: e.message || 'worker failed to start' };
});
worker.postMessage({ backend: new URLSearchParams(location.search).get('backend') ?? 'webgpu' });
