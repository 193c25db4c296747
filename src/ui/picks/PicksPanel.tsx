import { useEffect, useId, useState } from 'react';
import { controlPicks, downloadPicks, pickAnswers } from '../../client/commands.ts';
import type { DataSlot } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import type { DataRole } from '../../worker/protocols/data.ts';
import type { PickRuleChoice, PicksSource } from '../../worker/protocols/picks.ts';
import { MODEL_FREE_RULES, PICK_RULES, type PickRule } from '../../engine/score/picksRule.ts';
import { RULE_NAMES } from '../../engine/metrics/rules.ts';
import { Panel } from '../common/Panel.tsx';
import { duration, int, pct, sig } from '../format.ts';

const SETS: ReadonlyArray<{ set: PicksSource; label: string }> = [
  { set: 'picks', label: 'the file without labels' },
  { set: 'test', label: 'the test file' },
  { set: 'train', label: 'the training file' },
];

/** The rules Pick answers offers, named as the report names them (rules.json); without a model only those that need none. */
const choices = (hasModel: boolean): ReadonlyArray<{ rule: PickRuleChoice; label: string }> => [
  { rule: 'recommended', label: hasModel ? 'the recommended rule' : 'the best rule without a model' },
  ...PICK_RULES.filter((r): r is PickRule => r !== 'recommended' && (hasModel || MODEL_FREE_RULES.includes(r))).map((r) => ({ rule: r, label: RULE_NAMES[r] })),
];

function offered(data: Record<DataRole, DataSlot>, set: PicksSource): boolean {
  if (set === 'picks') return Object.values(data).some((d) => d.summary?.labelsFrom === 'none');
  const summary = data[set].summary;
  return summary !== null && summary.labelsFrom !== 'none';
}

/** Pick answers: the selected model's pick for every question of a file, written to picks.jsonl as it goes. */
export function PicksPanel() {
  // A role's panel shows either its labelled file or the picks set (a file without labels) loaded there.
  const loaded = useEngine((s) =>
    SETS.filter(({ set }) => offered(s.data, set))
      .map(({ set }) => set)
      .join(','),
  );
  const hasModel = useEngine((s) => s.models.active !== null);
  const progress = useEngine((s) => s.picks);
  const starting = useEngine((s) => s.pending.picks === true);
  const [chosen, setChosen] = useState<PicksSource | null>(null);
  const [rule, setRule] = useState<PickRuleChoice>('recommended');
  const setId = useId();
  const ruleId = useId();
  const available = loaded === '' ? [] : (loaded.split(',') as PicksSource[]);
  const set = chosen && available.includes(chosen) ? chosen : (available[0] ?? null);
  const active = progress?.state === 'running' || progress?.state === 'paused';
  useLeaveWarning(active);
  const reason = set === null ? 'Load a file first: one without labels, or a labelled one.' : null;
  const rules = choices(hasModel);
  const ruleShown = rules.some((r) => r.rule === rule) ? rule : 'recommended';

  return (
    <Panel
      id="picks"
      title="Pick answers"
      className="area-picks"
      aside={<span className="muted small">{hasModel ? 'uses the selected model' : 'no model: votes only'}</span>}
    >
      <div className="row">
        <label htmlFor={setId}>Questions of</label>
        <select
          id={setId}
          data-testid="picks-set"
          value={set ?? ''}
          disabled={available.length === 0 || active}
          onChange={(e) => setChosen(e.target.value as PicksSource)}
        >
          {SETS.filter((x) => available.includes(x.set)).map((x) => (
            <option key={x.set} value={x.set}>
              {x.label}
            </option>
          ))}
        </select>
        <label htmlFor={ruleId}>picked by</label>
        <select id={ruleId} data-testid="picks-rule" value={ruleShown} disabled={active} onChange={(e) => setRule(e.target.value as PickRuleChoice)}>
          {rules.map((r) => (
            <option key={r.rule} value={r.rule}>
              {r.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="primary"
          data-testid="picks-run"
          disabled={reason !== null || active || starting}
          onClick={() => set && pickAnswers(set, ruleShown)}
        >
          Pick answers
        </button>
        {reason && <span className="muted small">{reason}</span>}
      </div>
      {progress && (
        <div data-testid="picks-progress" data-done={progress.done} data-total={progress.total} data-state={progress.state}>
          <p className="small" role="status">
            {progress.dataName}: {int(progress.done)} of {int(progress.total)} questions picked{' '}
            {progress.modelSlot ? `by the ${progress.modelSlot} model` : 'without a model'} ({RULE_NAMES[progress.rule]})
            {progress.state === 'running' &&
              progress.questionsPerSecond !== null &&
              ` · ${sig(progress.questionsPerSecond, 3)} questions/s · about ${duration(progress.etaSeconds)} left`}
            {progress.state === 'paused' && ' · paused'}
            {progress.state === 'cancelled' && ' · cancelled'}
            {progress.state === 'done' && ' · done'}
            {progress.state === 'interrupted' && ' · interrupted'}
            {progress.accuracy !== null && ` · accuracy ${pct(progress.accuracy)} of ${int(progress.labelled)} labelled`}
          </p>
          {(progress.state === 'error' || progress.state === 'interrupted') && (
            <p className="notice notice-warn small" data-testid={progress.state === 'interrupted' ? 'picks-interrupted' : undefined}>
              {progress.message}
            </p>
          )}
          <div className="row">
            {active && (
              <>
                <button type="button" data-testid="picks-pause" onClick={() => controlPicks(progress.state === 'paused' ? 'resume' : 'pause')}>
                  {progress.state === 'paused' ? 'Resume' : 'Pause'}
                </button>
                <button type="button" data-testid="picks-cancel" onClick={() => controlPicks('cancel')}>
                  Cancel
                </button>
              </>
            )}
            <button type="button" data-testid="picks-download" disabled={progress.done === 0 || progress.state === 'interrupted'} onClick={downloadPicks}>
              Download picks.jsonl{active ? ' (so far)' : ''}
            </button>
          </div>
        </div>
      )}
    </Panel>
  );
}

/** While a picks run is under way, leaving or reloading the page asks first: its picks live only in this tab. */
function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium asks only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
}
