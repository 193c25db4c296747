import { useId, useState } from 'react';
import { evaluateScores } from '../../client/commands.ts';
import { useEngine } from '../../state/hooks.ts';
import { settingsStore } from '../../state/settingsStore.ts';
import { SelectionReportView } from './SelectionSummary.tsx';

const DEFAULT_FIELD = 'energy';

/**
 * Evaluate scores a file brings, without a model: a numeric field on every candidate line (an `energy`, another
 * reward model's `score`) gets the whole selection report, as a model's energies on a test file would.
 */
export function ScoresPanel() {
  // Strings, not new arrays: a selector must return the same value for the same state.
  const role = useEngine(
    (s) => (['test', 'train'] as const).find((r) => (s.data[r].summary?.scoreFields?.length ?? 0) > 0 && s.data[r].summary?.labelsFrom !== 'none') ?? null,
  );
  const fieldList = useEngine((s) => (role ? (s.data[role].summary?.scoreFields ?? []).join('\n') : ''));
  const scores = useEngine((s) => s.scores);
  const busy = useEngine((s) => s.pending.evaluateScores === true);
  const [field, setField] = useState('');
  const [higher, setHigher] = useState(false);
  const fieldId = useId();
  const listId = useId();
  if (role === null && !scores) return null;
  const fields = fieldList === '' ? [] : fieldList.split('\n');
  const chosen = field || (fields.includes(DEFAULT_FIELD) ? DEFAULT_FIELD : (fields[0] ?? DEFAULT_FIELD));
  return (
    <div className="scores-panel" data-testid="scores-panel">
      {role && (
        <div className="row">
          <label htmlFor={fieldId}>Scores in the {role === 'test' ? 'test' : 'training'} file&apos;s field</label>
          <input id={fieldId} list={listId} className="narrow" data-testid="scores-field" value={chosen} onChange={(e) => setField(e.target.value)} />
          <datalist id={listId}>
            {fields.map((f) => (
              <option key={f} value={f} />
            ))}
          </datalist>
          <label className="inline">
            <input type="checkbox" data-testid="scores-higher-is-better" checked={higher} onChange={(e) => setHigher(e.target.checked)} /> higher is better
          </label>
          <button
            type="button"
            data-testid="evaluate-scores"
            disabled={busy}
            onClick={() => evaluateScores(role, chosen, higher, settingsStore.getState().settings.selectorFields ?? [])}
          >
            {busy ? 'Evaluating…' : 'Evaluate these scores'}
          </button>
          <span className="muted small">no model needed: each candidate&apos;s own score ranks it</span>
        </div>
      )}
      {scores && (
        <SelectionReportView
          report={scores.report}
          testId="scores-summary"
          set={scores.role}
          title={`Which answer to trust by the scores in "${scores.field}" (${scores.higherIsBetter ? 'higher' : 'lower'} is better), ${scores.dataName}`}
        />
      )}
    </div>
  );
}
