import { type BackendChoice, backendLabel, backendName } from '../worker/backend/backendInfo.ts';
import { BACKEND_CHOICES, rememberBackendChoice } from '../client/backendChoice.ts';
import { send } from '../client/engineConnection.ts';
import { isRunActive } from '../state/engineState.ts';
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
  const training = useEngine((s) => isRunActive(s.run.status.state));
  const limits = backend?.adapter ? `max storage binding ${(backend.adapter.maxStorageBufferBindingSize / 2 ** 20).toFixed(0)} MiB` : '';
  const probes = backend?.probes
    .map((p) => `${backendName(p.backend)}: ${p.available ? `${p.gflops!.toFixed(1)} GFLOP/s in the probe (${p.ms.toFixed(0)} ms)` : p.error}`)
    .join('\n');
  return (
    <span className="backend">
      <span
        className={`badge badge-${backend ? (backend.adapter?.software ? 'cpu' : backend.backend) : 'pending'}`}
        data-testid="backend"
        data-backend={backend?.backend}
        data-reason={backend?.reason}
        title={[backend?.reason, probes, limits, cores ? `${cores} CPU threads` : ''].filter(Boolean).join('\n')}
      >
        {backend ? backendLabel(backend) : 'starting engine…'}
      </span>
      <label className="backend-choice">
        <span className="sr-only">Engine backend</span>
        <select
          data-testid="backend-select"
          value={backend?.requested ?? 'auto'}
          disabled={!backend || training}
          title={training ? 'Stop the run to switch the backend' : 'Which backend the engine uses (remembered)'}
          onChange={(e) => {
            const choice = e.target.value as BackendChoice;
            rememberBackendChoice(choice);
            send({ type: 'setBackend', backend: choice });
          }}
        >
          {BACKEND_CHOICES.map((c) => (
            <option key={c} value={c}>
              {c === 'auto' ? 'auto (fastest)' : backendName(c)}
            </option>
          ))}
        </select>
      </label>
    </span>
  );
}

/** Why the engine runs where it does, when that is slow: the CPU backend, or a software WebGPU adapter. */
function BackendNotice() {
  const backend = useEngine((s) => s.backend);
  if (!backend || !(backend.backend === 'cpu' || backend.adapter?.software)) return null;
  return (
    <div className="notice notice-warn" role="status" data-testid="backend-notice">
      <strong>Training here will be slow</strong>: {backend.reason}. Its timings are not GPU speed; keep the model tiny.
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
      <BackendNotice />
    </>
  );
}
