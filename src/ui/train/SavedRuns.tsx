import { useState } from 'react';
import { isRunActive } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { settingsStore } from '../../state/settingsStore.ts';
import type { SavedRunInfo } from '../../worker/protocols/training.ts';
import { deleteCheckpoint, deleteSavedRun, resumeSavedRun } from '../../client/commands.ts';
import { fixed, int } from '../format.ts';
import { RunCompare } from './RunCompare.tsx';
import { StorageUse } from './StorageUse.tsx';
import { StoredDatasets } from './StoredDatasets.tsx';

const STATE_TEXT: Record<SavedRunInfo['state'], string> = {
  running: 'running',
  paused: 'paused',
  interrupted: 'interrupted',
  done: 'done',
};

/** The runs kept in this browser: their figures, Resume from the last checkpoint, Delete. */
export function SavedRuns() {
  const restored = useEngine((s) => s.savedRuns);
  const runs = restored ?? [];
  // Two runs ticked for comparison; the older tick goes when a third is ticked.
  const [ticked, setTicked] = useState<string[]>([]);
  const toggle = (id: string) => setTicked((t) => (t.includes(id) ? t.filter((x) => x !== id) : [...t, id].slice(-2)));
  const compared = ticked.map((id) => runs.find((r) => r.id === id)).filter((r): r is SavedRunInfo => r !== undefined);
  const busy = useEngine((s) => isRunActive(s.run.status.state) || s.backend === null);
  return (
    <div className="saved-runs">
      <h3>Saved runs</h3>
      <StorageUse runs={runs.length} />
      {runs.length === 0 && <p className="muted small">No run saved in this browser yet: runs are saved as they train.</p>}
      <ul data-testid="runs" data-restored={restored !== null}>
        {runs.map((r) => (
          <li key={r.id} data-testid="run-item" data-run-id={r.id} data-checkpoint-step={r.checkpointStep} data-state={r.state}>
            <input type="checkbox" data-testid="run-compare-tick" aria-label="compare" checked={ticked.includes(r.id)} onChange={() => toggle(r.id)} />{' '}
            <span className={`pill pill-${r.state}`}>{STATE_TEXT[r.state]}</span> {r.datasetName} · {r.settings.preset} · seed {r.settings.seed} · checkpoint at
            step {int(r.checkpointStep)} / {int(r.totalSteps)} · loss {fixed(r.lastLoss)} · best val Best-of-N {fixed(r.bestValBestOfN)} ·{' '}
            <span className="muted small">{new Date(r.createdAt).toLocaleString()}</span>{' '}
            <button
              type="button"
              data-testid="run-resume"
              disabled={busy || r.state === 'done' || r.state === 'running' || r.checkpointStep === 0}
              title={r.checkpointStep === 0 ? 'No checkpoint was saved for this run' : 'Continue from its last checkpoint'}
              onClick={() => {
                // The form takes the run's settings, so it shows what the resumed run trains with.
                settingsStore.setState({ settings: r.settings });
                resumeSavedRun(r.id);
              }}
            >
              Resume
            </button>{' '}
            <button
              type="button"
              data-testid="run-delete-checkpoint"
              disabled={r.state === 'running' || r.checkpointStep === 0}
              title="Frees its storage; the run and its curves stay listed, but it can no longer be resumed"
              onClick={() => deleteCheckpoint(r.id)}
            >
              Delete checkpoint
            </button>{' '}
            <button type="button" data-testid="run-delete" disabled={r.state === 'running'} onClick={() => deleteSavedRun(r.id)}>
              Delete
            </button>
          </li>
        ))}
      </ul>
      {compared.length === 2 ? (
        <RunCompare a={compared[0]} b={compared[1]} />
      ) : (
        runs.length > 1 && <p className="muted small">Tick two runs to compare them.</p>
      )}
      <StoredDatasets />
    </div>
  );
}
