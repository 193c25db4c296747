import { disagreementsJsonl, MAX_LISTED_DISAGREEMENTS, type AnswerStats } from '../../engine/data/answers/answerStats.ts';
import { saveFile } from '../../client/download.ts';
import { fixed, int, pct } from '../format.ts';
import { Stat } from '../common/Stat.tsx';

/** The answer figures of the data panel (engine/data/answers/answerStats.ts), and the lines whose label disagrees with gold as a download. */
export function AnswerStatsView({ answers: a, name }: { answers: AnswerStats; name: string }) {
  const download = () => saveFile(disagreementsJsonl(a.disagreements), `${name.replace(/\.jsonl?$/i, '')}.label-vs-gold.jsonl`, 'application/x-ndjson');
  const listed = a.disagreements.length < a.labelGoldDisagreements ? ` (the first ${int(MAX_LISTED_DISAGREEMENTS)} in the download)` : '';
  return (
    <>
      <Stat label="Answer in text" title="Candidates whose text states a final answer (\boxed, Answer:, the answer is, ####, else a last number)">
        <span data-testid="answer-share" data-value={a.shareWithTextAnswer}>
          {pct(a.shareWithTextAnswer)}
        </span>
      </Stat>
      <Stat label="Distinct answers" title="Median number of different answers per question">
        <span data-testid="distinct-answers" data-value={a.medianDistinctAnswers}>
          {fixed(a.medianDistinctAnswers, a.medianDistinctAnswers % 1 === 0 ? 0 : 1)}
        </span>
      </Stat>
      <Stat
        label="Answer field ≠ text"
        title="Lines whose answer field is not the answer their text states (the vote uses the field)"
        tone={a.answerFieldDisagreements > 0 ? 'warn' : undefined}
      >
        <span data-testid="answer-field-disagreements" data-value={a.answerFieldDisagreements}>
          {int(a.answerFieldDisagreements)}
        </span>
      </Stat>
      {a.labelledFromGold > 0 && (
        <Stat label="Labelled from gold" title="Lines without a label, labelled by whether their answer is the gold answer">
          <span data-testid="labelled-from-gold" data-value={a.labelledFromGold}>
            {int(a.labelledFromGold)}
          </span>
        </Stat>
      )}
      {a.labelAndGold > 0 && (
        <Stat
          label="Label ≠ gold"
          title={`Of ${int(a.labelAndGold)} lines with a label and a gold answer, those whose label is not whether their answer is the gold answer${listed}`}
          tone={a.labelGoldDisagreements > 0 ? 'warn' : undefined}
        >
          <span data-testid="label-gold-disagreements" data-value={a.labelGoldDisagreements}>
            {int(a.labelGoldDisagreements)}
          </span>
          {a.labelGoldDisagreements > 0 && (
            <>
              {' '}
              <button type="button" className="link" data-testid="download-label-gold" onClick={download}>
                download
              </button>
            </>
          )}
        </Stat>
      )}
    </>
  );
}
