import type { RankedCandidate, RerankAnswer } from '../../worker/protocols/models.ts';
import { attr, fixed, pct, sig } from '../format.ts';

/**
 * The pasted candidates grouped by final answer, as the worker grouped them: each answer's probability
 * (the map the model's evaluation fitted on held-out questions: the vote's share, Platt's map of it, or the
 * learned selector's), the pick, and the answer's candidates by energy (rank 1 = the lowest of all).
 */
export function AnswerGroups(props: { answers: RerankAnswer[]; candidates: RankedCandidate[]; temperature: number; temperatureSource: string }) {
  const byIndex = new Map(props.candidates.map((c) => [c.index, c]));
  return (
    <div className="answer-groups">
      <p className="small muted">
        Final answers, the vote at T = {fixed(props.temperature, 3)} ({props.temperatureSource}).
      </p>
      <table className="grid-table compact">
        <thead>
          <tr>
            <th>Answer</th>
            <th className="num">Probability</th>
            <th>Candidates (rank · energy), lowest energy first</th>
          </tr>
        </thead>
        <tbody>
          {props.answers.map((a, k) => (
            <tr
              key={k}
              data-testid="answer-row"
              data-answer={a.answer ?? ''}
              data-probability={attr(a.probability)}
              data-picked={a.picked}
              className={a.picked ? 'strong' : undefined}
            >
              <th>
                {a.answer ?? <span className="muted">no answer found</span>}
                {a.picked ? ' ← pick' : ''}
              </th>
              <td className="num">{pct(a.probability)}</td>
              <td className="small">
                {a.candidates
                  .map((i) => byIndex.get(i))
                  .filter((c) => c !== undefined)
                  .map((c) => `#${c.rank} · ${sig(c.energy, 4)}`)
                  .join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
