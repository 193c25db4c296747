import { useEngine } from '../../state/hooks.ts';
import { settingsStore } from '../../state/settingsStore.ts';
import { pauseTraining, resumeTraining, startTraining, stopTraining } from '../../client/commands.ts';
import { isRunActive } from '../../state/engineState.ts';

/** Start / pause / resume / stop, each enabled only when the worker can act on it. */
export function TrainControls() {
  const state = useEngine((s) => s.run.status.state);
  const ready = useEngine((s) => s.backend !== null);
  const data = useEngine((s) => s.data.train);
  const startPending = useEngine((s) => s.pending.start === true);
  const trainable = (data.summary?.trainableGroups ?? 0) > 0;
  const canStart = ready && data.status === 'ready' && trainable && !isRunActive(state) && !startPending;
  const why = !ready
    ? 'Waiting for the engine to start'
    : data.status !== 'ready'
      ? 'Load a dataset first'
      : !trainable
        ? 'The dataset has no group with both labels'
        : null;
  return (
    <div className="controls">
      <button
        type="button"
        className="primary"
        data-testid="train-start"
        disabled={!canStart}
        onClick={() => startTraining(settingsStore.getState().settings)}
        title={why ?? undefined}
      >
        Start training
      </button>
      <button type="button" data-testid="train-pause" disabled={state !== 'training'} onClick={pauseTraining}>
        Pause
      </button>
      <button type="button" data-testid="train-resume" disabled={state !== 'paused'} onClick={resumeTraining}>
        Resume
      </button>
      <button type="button" data-testid="train-stop" disabled={!isRunActive(state)} onClick={stopTraining}>
        Stop
      </button>
      {why && !isRunActive(state) && <span className="muted small">{why}</span>}
    </div>
  );
}
