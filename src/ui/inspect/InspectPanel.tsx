import { useEffect, useId, useState } from 'react';
import type { EvalSet, InspectFilter } from '../../worker/protocols/models.ts';
import { firstGroupToShow, isRunActive, isStale } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { EvalProgressView } from '../common/EvalProgressView.tsx';
import { Panel } from '../common/Panel.tsx';
import { evaluate, inspect } from '../../client/commands.ts';
import { CandidateTable } from './CandidateTable.tsx';
import { EvalSplitNote } from './EvalSplitNote.tsx';
import { EvalSummaryTable } from './EvalSummaryTable.tsx';
import { SourceTable } from './SourceTable.tsx';

/** Browse how the selected model ranks each group of the validation (or test) set. */
export function InspectPanel() {
  const view = useEngine((s) => s.inspect);
  const stale = useEngine((s) => s.inspect?.model != null && isStale(s.inspect.model, s.models.available));
  const hasModel = useEngine((s) => s.models.active !== null);
  const activeSlot = useEngine((s) => s.models.active);
  const hasTest = useEngine((s) => s.data.test.summary !== null);
  const hasVal = useEngine((s) => s.data.train.summary !== null);
  const busy = useEngine((s) => s.pending.inspect === true);
  const evaluating = useEngine((s) => s.pending.evaluate === true);
  // Evaluating competes with a running training step for the worker; paused is fine.
  const training = useEngine((s) => s.run.status.state === 'compiling' || s.run.status.state === 'training');
  const [set, setSet] = useState<EvalSet>('val');
  const [filter, setFilter] = useState<InspectFilter>('all');
  const [position, setPosition] = useState(0);
  const [positionText, setPositionText] = useState('1');
  const setId = useId();
  const filterId = useId();
  const posId = useId();

  // The worker clamps the position; follow what it actually shows.
  const shown = view?.position;
  useEffect(() => {
    if (shown !== undefined) {
      setPosition(shown);
      setPositionText(String(shown + 1));
    }
  }, [shown]);

  const canInspectFor = (s: EvalSet) => hasModel && (s === 'val' ? hasVal : hasTest);
  const canInspect = canInspectFor(set);
  const go = (p: number, s: EvalSet = set, f: InspectFilter = filter) => {
    const next = Math.max(0, p);
    setPosition(next);
    setPositionText(String(next + 1));
    if (canInspectFor(s)) inspect(s, f, next);
  };

  // Choosing another model re-ranks the group on screen with it (not mid-run: that would race training).
  const runActive = useEngine((s) => isRunActive(s.run.status.state));
  useEffect(() => {
    if (activeSlot && view && !runActive) inspect(view.set, view.filter, view.position);
  }, [activeSlot]); // only when the model changes, not when the view does

  // An evaluation of this set arrived while Inspect shows nothing: show its first group (once per evaluation).
  const evaluated = useEngine((s) => firstGroupToShow(s, set));
  useEffect(() => {
    if (evaluated) go(0);
  }, [evaluated]); // once per evaluation report

  const matching = view && view.set === set && view.filter === filter ? view.matching : null;
  return (
    <Panel id="inspect" title="Inspect" className="area-inspect" aside={<span className="muted small">uses the selected model</span>}>
      <div className="toolbar">
        <div className="field inline">
          <label htmlFor={setId}>Set</label>
          <select
            id={setId}
            data-testid="inspect-set"
            value={set}
            onChange={(e) => {
              const s = e.target.value as EvalSet;
              setSet(s);
              go(0, s, filter);
            }}
          >
            <option value="val">validation</option>
            <option value="test" disabled={!hasTest}>
              test{hasTest ? '' : ' (load a test set)'}
            </option>
          </select>
        </div>
        <div className="field inline">
          <label htmlFor={filterId}>Show</label>
          <select
            id={filterId}
            data-testid="inspect-filter"
            value={filter}
            onChange={(e) => {
              const f = e.target.value as InspectFilter;
              setFilter(f);
              go(0, set, f);
            }}
          >
            <option value="all">all groups</option>
            <option value="top-wrong">top choice wrong</option>
          </select>
        </div>
        <button type="button" data-testid="inspect-prev" disabled={!canInspect || position <= 0} onClick={() => go(position - 1)}>
          ◀ Prev
        </button>
        <div className="field inline">
          <label htmlFor={posId}>Group</label>
          <input
            id={posId}
            className="narrow"
            type="text"
            inputMode="numeric"
            data-testid="inspect-position"
            value={positionText}
            onChange={(e) => setPositionText(e.target.value)}
            onKeyDown={(e) => {
              const n = Number(positionText);
              if (e.key === 'Enter' && Number.isInteger(n) && n >= 1) go(n - 1);
            }}
            onBlur={() => {
              const n = Number(positionText);
              if (Number.isInteger(n) && n >= 1 && n - 1 !== position) go(n - 1);
            }}
          />
          <span className="muted">of {matching ?? '?'}</span>
        </div>
        <button
          type="button"
          data-testid="inspect-next"
          disabled={!canInspect || (matching !== null && position + 1 >= matching)}
          onClick={() => go(position + 1)}
        >
          Next ▶
        </button>
        <button type="button" data-testid="inspect-show" disabled={!canInspect} onClick={() => go(position)}>
          {busy ? 'Ranking…' : view ? 'Refresh' : 'Show'}
        </button>
        <span className="spacer" />
        <button type="button" data-testid="evaluate-val" disabled={!hasModel || !hasVal || training} onClick={() => evaluate('val')}>
          Evaluate validation
        </button>
        {hasTest && (
          <button type="button" data-testid="evaluate-test" disabled={!hasModel || training} onClick={() => evaluate('test')}>
            {evaluating ? 'Evaluating…' : 'Evaluate test set'}
          </button>
        )}
      </div>
      {!hasModel && <p className="muted">Train or import a model; Inspect then shows how it ranks each group.</p>}
      {(busy || evaluating) && !training && <EvalProgressView />}
      <EvalSplitNote />
      <EvalSummaryTable />
      <SourceTable set={set} />
      {view && (
        <div className="inspect-view" data-testid="inspect-view" data-group={view.groupIndex} data-position={view.position} data-stale={stale}>
          {stale && view.model && (
            <p className="notice notice-warn small" role="status" data-testid="inspect-stale">
              The {view.model.slot} model has been replaced since: this ranking is from the earlier one. Press Refresh for the current one.
            </p>
          )}
          <p className="question">
            <span className="muted small">
              {view.set === 'val' ? 'Validation' : 'Test'} group #{view.groupIndex} · {view.position + 1} of {view.matching}
              {view.filter === 'top-wrong' ? ' where the top choice is wrong' : ''}
              {view.model ? ` · ranked by the ${view.model.slot} model` : ''}
            </span>
            <br />
            {view.question}
          </p>
          <CandidateTable candidates={view.candidates} rowTestId="inspect-candidate" showLabel explain={{ view: 'inspect', question: view.question }} />
        </div>
      )}
      {view && view.matching === 0 && <p className="muted">No group matches this filter.</p>}
    </Panel>
  );
}
