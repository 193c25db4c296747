import { useEngine } from '../../state/hooks.ts';
import { Stat } from '../common/Stat.tsx';
import { attr, pct, sig } from '../format.ts';
import { evalWhen } from '../evalWhen.ts';

/**
 * The headline numbers of the run: latest raw training loss, the latest validation report and
 * its baselines, and the per-epoch training loss. data-* attributes carry full precision.
 */
export function MetricsView() {
  const last = useEngine((s) => s.run.lastPoint);
  const latest = useEngine((s) => s.latestEval.val);
  const val = latest?.report;
  const best = useEngine((s) => s.run.bestValBestOfN);
  const epochLosses = useEngine((s) => s.run.epochLosses);
  const m = val?.summary;
  const b = m?.baselines;
  return (
    <div
      className="metrics"
      data-testid="metrics"
      data-train-loss={attr(last?.loss)}
      data-val-bon={attr(m?.bestOfN)}
      data-val-pairwise={attr(m?.pairwise)}
      data-best-val-bon={attr(best)}
      data-first={attr(b?.firstCandidate)}
      data-majority={attr(b?.majorityVote)}
      data-oracle={attr(b?.oracle)}
      data-val-nonfinite={m?.nNonFinite}
      data-epoch-losses={JSON.stringify(epochLosses)}
    >
      <dl className="stats">
        <Stat label="Train loss (last step)">{sig(last?.loss)}</Stat>
        <Stat label="Smoothed">{sig(last?.smoothed)}</Stat>
        <Stat label="LR">{sig(last?.lr, 3)}</Stat>
        <Stat label="Grad norm">{sig(last?.gradNorm, 3)}</Stat>
        <Stat label="Val Best-of-N" title={latest ? `validation, ${evalWhen(latest)}` : undefined} tone="good">
          {pct(m?.bestOfN)}
        </Stat>
        <Stat label="Best val Best-of-N">{pct(best)}</Stat>
        <Stat label="Val pairwise" title="Share of (correct, incorrect) pairs ranked right; macro = mean per-group AUC">
          {pct(m?.pairwise)}
          {m && <span className="muted"> · macro {pct(m.pairwiseMacro)}</span>}
        </Stat>
        <Stat label="Val margin / BT loss" title="mean E(incorrect) − E(correct); positive is good">
          {sig(m?.meanMargin, 3)} / {sig(m?.btLoss, 3)}
        </Stat>
        <Stat label="First candidate">{pct(b?.firstCandidate)}</Stat>
        <Stat label="Random (expected)">{pct(b?.randomExpected)}</Stat>
        <Stat label="Majority vote">{pct(b?.majorityVote)}</Stat>
        <Stat label="Energy-weighted vote">{pct(b?.weightedVote)}</Stat>
        <Stat label="Oracle">{pct(b?.oracle)}</Stat>
      </dl>
      {latest && (
        <p className="small muted">
          Validation numbers: {evalWhen(latest)}, {m?.nGroups} groups, {m?.nPairs} pairs.
        </p>
      )}
      {m && m.nNonFinite > 0 && (
        <p className="notice notice-warn small" data-testid="nonfinite-warning">
          {m.nNonFinite} validation energies are NaN or infinite: they rank last, and the margin and BT loss read NaN. Lower the learning rate or raise warmup.
        </p>
      )}
      {epochLosses.length > 0 && <p className="small">Epoch train loss: {epochLosses.map((l, i) => `ep ${i + 1} ${sig(l)}`).join(' · ')}</p>}
    </div>
  );
}
