import { useEngine } from '../../state/hooks.ts';
import { EvalProgressView } from '../common/EvalProgressView.tsx';
import { ProgressBar } from '../common/ProgressBar.tsx';
import { bytes, duration, fixed, int, pct } from '../format.ts';

const STATE_TEXT = {
  idle: 'idle',
  compiling: 'compiling kernels…',
  training: 'training',
  paused: 'paused',
  done: 'done',
  error: 'error',
} as const;

/** Where the run is: state, step and epoch, throughput and time left. */
export function TrainStatusView() {
  const status = useEngine((s) => s.run.status);
  const tp = useEngine((s) => s.run.throughput);
  const completion = useEngine((s) => s.run.completion);
  const best = useEngine((s) => s.run.bestCheckpoint);
  return (
    <div
      className={`train-status state-${status.state}`}
      data-testid="train-status"
      data-state={status.state}
      data-step={status.step}
      data-epoch={status.epoch}
      data-tokens-per-sec={tp ? tp.tokensPerSec.toFixed(1) : undefined}
      data-steps-per-sec={tp ? tp.stepsPerSec.toFixed(3) : undefined}
      data-skipped-steps={tp ? tp.skippedSteps : undefined}
    >
      <div className="status-line">
        <span className={`pill pill-${status.state}`}>{STATE_TEXT[status.state]}</span>
        {status.totalSteps > 0 && (
          <span>
            step {int(status.step)} / {int(status.totalSteps)} · epoch {status.epoch} / {status.totalEpochs}
          </span>
        )}
      </div>
      {status.totalSteps > 0 && <ProgressBar value={status.step} max={status.totalSteps} label={`${pct(status.step / status.totalSteps, 0)}`} />}
      <EvalProgressView />
      {tp && (
        <div className="throughput">
          <span>{fixed(tp.stepsPerSec, 2)} steps/s</span>
          <span>{int(tp.tokensPerSec)} tokens/s</span>
          <span>elapsed {duration(tp.elapsedSeconds)}</span>
          <span>ETA {duration(tp.etaSeconds)}</span>
          <span title="Live TensorFlow.js tensors in the worker; should stay flat from step to step">
            {int(tp.tensors)} tensors · {bytes(tp.tensorBytes)}
          </span>
          {tp.skippedSteps > 0 && (
            <span className="warn" title="Steps whose loss or gradient norm was NaN or infinite: their update was skipped">
              {int(tp.skippedSteps)} skipped (non-finite)
            </span>
          )}
        </div>
      )}
      {status.message && <p className={status.state === 'error' ? 'notice notice-error small' : 'muted small'}>{status.message}</p>}
      {best && (
        <p className="small">
          Best checkpoint: epoch {best.epoch}, step {int(best.step)}, val Best-of-N {pct(best.valBestOfN)}
        </p>
      )}
      {completion && (
        <p className="small">
          {completion.reason === 'finished' ? 'Finished' : 'Stopped'} after {int(completion.steps)} steps
          {completion.bestValBestOfN !== null ? `; best val Best-of-N ${pct(completion.bestValBestOfN)}` : ''}.
        </p>
      )}
    </div>
  );
}
