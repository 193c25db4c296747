// Test page: runs the cross-backend resume check in a worker (as the app's engine runs) and exposes its report.
const worker = new Worker(new URL('./resumeBackends.worker.ts', import.meta.url), { type: 'module' });
const out = document.getElementById('out')!;
const done = (report: unknown) => {
  (window as unknown as { __resume: unknown }).__resume = report;
  out.textContent = JSON.stringify(report, null, 1);
};
worker.addEventListener('message', (e: MessageEvent<{ progress?: string }>) =>
  e.data.progress ? console.log(`resume check: ${e.data.progress}`) : done(e.data),
);
worker.addEventListener('error', (e) => done({ error: e.message || 'worker failed to start' }));
worker.postMessage(null);
