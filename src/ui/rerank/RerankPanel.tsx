import { useId, useState } from 'react';
import { isStale } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { Panel } from '../common/Panel.tsx';
import { rerank } from '../../client/commands.ts';
import { CandidateTable } from '../inspect/CandidateTable.tsx';
import { AnswerGroups } from './AnswerGroups.tsx';

type CopyState = 'idle' | 'copied' | 'unavailable' | 'failed';

/** Paste a question and some answers; the selected model orders them by energy. */
export function RerankPanel() {
  const result = useEngine((s) => s.rerank);
  const stale = useEngine((s) => s.rerank !== null && isStale(s.rerank.model, s.models.available));
  const hasModel = useEngine((s) => s.models.active !== null);
  const busy = useEngine((s) => s.pending.rerank === true);
  const [question, setQuestion] = useState('');
  const [candidates, setCandidates] = useState('');
  const [copy, setCopy] = useState<CopyState>('idle');
  const qId = useId();
  const cId = useId();
  const helpId = useId();

  const copyJson = async () => {
    if (!result) return;
    const rows = result.candidates.map(({ rank, index, energy, deltaToBest, share, answer, text }) => ({
      rank,
      index,
      energy,
      deltaToBest,
      share,
      answer,
      text,
    }));
    // The Clipboard API is missing on insecure origins and in some embedded browsers.
    if (!navigator.clipboard?.writeText) {
      setCopy('unavailable');
      return;
    }
    try {
      await navigator.clipboard.writeText(
        JSON.stringify(
          { question: result.question, model: result.model.slot, temperature: result.temperature, answers: result.answers, ranked: rows },
          null,
          2,
        ),
      );
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  // An empty question is allowed (the reference scores [CLS] [SEP] answer too); the hint below says what it means.
  const canRun = hasModel && candidates.trim() !== '';
  const noQuestion = question.trim() === '';
  return (
    <Panel id="rerank" title="Rerank" className="area-rerank" aside={<span className="muted small">uses the selected model</span>}>
      <div className="rerank-inputs">
        <div className="field stacked">
          <label htmlFor={qId}>Question</label>
          <textarea id={qId} data-testid="rerank-question" rows={3} value={question} onChange={(e) => setQuestion(e.target.value)} />
          {noQuestion && (
            <p className="hint" data-testid="rerank-no-question">
              Without a question the model reads <code>[CLS] [SEP] answer</code>. It was trained with the question in front of each answer, so energies without
              it say less.
            </p>
          )}
        </div>
        <div className="field stacked">
          <label htmlFor={cId}>Candidate answers</label>
          <textarea
            id={cId}
            data-testid="rerank-candidates"
            rows={8}
            aria-describedby={helpId}
            value={candidates}
            onChange={(e) => setCandidates(e.target.value)}
          />
          <p id={helpId} className="hint">
            Separate candidates with a line containing only <code>---</code>, or paste JSONL lines with a <code>gen_text</code> field.
          </p>
        </div>
      </div>
      <div className="row">
        <button type="button" className="primary" data-testid="rerank-run" disabled={!canRun} onClick={() => rerank(question, candidates)}>
          {busy ? 'Ranking…' : 'Rerank'}
        </button>
        {!hasModel && <span className="muted small">Train or import a model first.</span>}
        {result && (
          <>
            <button type="button" data-testid="rerank-copy" onClick={copyJson}>
              Copy as JSON
            </button>
            <span className="muted small" role="status">
              {copy === 'copied'
                ? 'Copied.'
                : copy === 'unavailable'
                  ? 'Clipboard not available in this browser.'
                  : copy === 'failed'
                    ? 'Copy was refused.'
                    : ''}
            </span>
          </>
        )}
      </div>
      {result && (
        <div data-testid="rerank-result" data-model-slot={result.model.slot} data-stale={stale}>
          <p className="small muted">
            {result.candidates.length} candidates ranked by the <strong>{result.model.slot}</strong> model
            {result.question.trim() === '' ? ', without a question' : ''}; rank 1 is its pick.
          </p>
          {stale && (
            <p className="notice notice-warn small" role="status" data-testid="rerank-stale">
              The {result.model.slot} model has been replaced since: these energies are from the earlier one. Press Rerank again for the current one.
            </p>
          )}
          {result.answers.length > 0 && (
            <AnswerGroups
              answers={result.answers}
              candidates={result.candidates}
              temperature={result.temperature}
              temperatureSource={result.temperatureSource}
            />
          )}
          <CandidateTable
            candidates={result.candidates}
            rowTestId="ranked-candidate"
            showLabel={false}
            explain={{ view: 'rerank', question: result.question }}
          />
        </div>
      )}
    </Panel>
  );
}
