import { backendLabel } from '../worker/backendInfo.ts';
import { useEngine } from '../state/hooks.ts';

const SECTIONS = [
  ['data', 'Data'],
  ['train', 'Train'],
  ['inspect', 'Inspect'],
  ['rerank', 'Rerank'],
  ['model', 'Model'],
] as const;

function BackendBadge() {
  const backend = useEngine((s) => s.backend);
  const cores = useEngine((s) => s.hardwareConcurrency);
  const limits = backend?.adapter
    ? `max storage binding ${(backend.adapter.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB`
    : '';
  return (
    <span
      className={`badge badge-${backend?.backend ?? 'pending'}`}
      data-testid="backend"
      data-backend={backend?.backend}
      title={[limits, cores ? `${cores} CPU threads` : ''].filter(Boolean).join(' · ')}
    >
      {backend ? backendLabel(backend) : 'starting engine…'}
    </span>
  );
}

/** Shown whenever the worker fell back to the CPU: training will be much slower. */
function FallbackNotice() {
  const reason = useEngine((s) => s.backend?.fallbackReason ?? null);
  if (!reason) return null;
  return (
    <div className="notice notice-warn" role="alert" data-testid="fallback-notice">
      <strong>WebGPU is unavailable</strong>: {reason}. Training runs on the CPU backend, which is slow — keep the
      model tiny.
    </div>
  );
}

export function Header() {
  return (
    <>
      <header className="app-header">
        <h1>EORM Studio</h1>
        <span className="tagline">train a small energy verifier that ranks chain-of-thought answers</span>
        <nav aria-label="Sections">
          {SECTIONS.map(([id, name]) => (
            <a key={id} href={`#${id}`}>
              {name}
            </a>
          ))}
        </nav>
        <BackendBadge />
      </header>
      <FallbackNotice />
    </>
  );
}
