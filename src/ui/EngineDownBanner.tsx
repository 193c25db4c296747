import { useState } from 'react';
import type { Verdict } from '../client/heartbeat.ts';
import { backendName, type BackendChoice } from '../worker/backend/backendInfo.ts';
import { BACKEND_CHOICES, rememberBackendChoice } from '../client/backendChoice.ts';
import { useEngine } from '../state/hooks.ts';
import { currentBackendChoice, restartWorker } from '../client/engineConnection.ts';

const WHAT_HAPPENED: Record<Verdict, string> = {
  gone: 'The engine stopped (it may have run out of memory).',
  silent: 'The engine stopped responding (it may have run out of memory).',
  hung: 'The engine has not responded for minutes although it is still running (a step may be stuck).',
};

/** The engine worker died or hung: says so in plain words and restarts it, on the same or another backend. */
export function EngineDownBanner() {
  const down = useEngine((s) => s.engineDown);
  // Until the user picks one, the backend the engine ran on (read when the banner shows, not when it mounted).
  const [picked, setPicked] = useState<BackendChoice | null>(null);
  if (!down) return null;
  const backend = picked ?? currentBackendChoice();
  return (
    <div className="notice notice-error" role="alert" data-testid="engine-crashed" data-verdict={down.verdict}>
      <span>
        <strong>{WHAT_HAPPENED[down.verdict]}</strong> Restart it: your saved runs and datasets are kept; an interrupted run can be resumed from its last
        checkpoint under Saved runs.
      </span>
      <span>
        <label>
          on{' '}
          <select data-testid="engine-restart-backend" value={backend} onChange={(e) => setPicked(e.target.value as BackendChoice)}>
            {BACKEND_CHOICES.map((c) => (
              <option key={c} value={c}>
                {c === 'auto' ? 'auto (fastest)' : backendName(c)}
              </option>
            ))}
          </select>
        </label>{' '}
        <button
          type="button"
          className="primary"
          data-testid="engine-restart"
          onClick={() => {
            rememberBackendChoice(backend);
            restartWorker(backend);
          }}
        >
          Restart engine
        </button>
      </span>
    </div>
  );
}
