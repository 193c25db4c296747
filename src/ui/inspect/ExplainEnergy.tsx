import { useState } from 'react';
import { explainEnergy } from '../../client/explainEnergy.ts';
import { type SaliencyView, isStale } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import type { RankedCandidate, SaliencyTarget } from '../../worker/protocols/models.ts';
import { SaliencyText } from '../common/SaliencyText.tsx';

/** Where the candidates are shown and of which question: each row then has a "Why this energy?" button. */
export interface ExplainContext {
  view: SaliencyTarget['view'];
  question: string;
}

/** The store's saliency is the one asked for this candidate of this view (same question and text, so not another group's). */
function askedFor(saliency: SaliencyView | null, context: ExplainContext, c: RankedCandidate): boolean {
  return (
    saliency !== null &&
    saliency.target.view === context.view &&
    saliency.target.index === c.index &&
    saliency.question === context.question &&
    saliency.text === c.text
  );
}

/** Asks the worker what deleting each piece of one candidate's answer does to its energy; it computes there, so the page stays responsive. */
export function ExplainButton({ context, candidate }: { context: ExplainContext; candidate: RankedCandidate }) {
  const hasModel = useEngine((s) => s.models.active !== null);
  const computing = useEngine((s) => askedFor(s.saliency, context, candidate) && s.saliency?.result === null && s.pending.saliency === true);
  return (
    <button
      type="button"
      className="link"
      data-testid="saliency-button"
      disabled={!hasModel || computing}
      aria-busy={computing}
      onClick={() => explainEnergy(context.view, candidate.index, context.question, candidate.text)}
    >
      {computing ? 'computing…' : 'Why this energy?'}
    </button>
  );
}

/** The row under a candidate with its attribution once it has come (or the note that it is being computed). */
export function ExplainRow({ context, candidate, columns }: { context: ExplainContext; candidate: RankedCandidate; columns: number }) {
  const view = useEngine((s) => (askedFor(s.saliency, context, candidate) ? s.saliency : null));
  const busy = useEngine((s) => s.pending.saliency === true);
  const stale = useEngine((s) => (s.saliency?.result ? isStale(s.saliency.result.model, s.models.available) : false));
  const [hidden, setHidden] = useState<number | null>(null);
  // A request that failed leaves no row: its error banner says why.
  if (!view || hidden === view.target.id || (!view.result && !busy)) return null;
  return (
    <tr className="saliency-row" data-testid="saliency-row" data-index={candidate.index} data-ready={view.result !== null}>
      <td colSpan={columns}>
        {view.result ? (
          <>
            <div className="row small">
              <span className="muted">
                Why this energy — candidate #{candidate.index + 1}, by the <strong>{view.result.model.slot}</strong> model.
              </span>
              <button type="button" className="link" data-testid="saliency-hide" onClick={() => setHidden(view.target.id)}>
                hide
              </button>
            </div>
            {stale && (
              <p className="notice notice-warn small" role="status">
                The {view.result.model.slot} model has been replaced since: this attribution is from the earlier one.
              </p>
            )}
            <SaliencyText saliency={view.result} />
          </>
        ) : (
          <span className="muted small" role="status" data-testid="saliency-computing">
            Scoring the answer without each of its steps, then tokens
            {view.progress ? `: ${view.progress.done} of ${view.progress.total} reduced texts` : ''}…
          </span>
        )}
      </td>
    </tr>
  );
}
