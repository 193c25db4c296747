import type { Calibration, Interval, SelectionReport, SelectionRule } from '../../engine/metrics/selectionTypes.ts';
import { RULE_NAMES, SELECTION_RULES } from '../../engine/metrics/rules.ts';
import { LENGTH_RULES, LENGTH_RULE_NAMES } from '../../engine/metrics/lengthBias/lengthBiasTypes.ts';
import { type LatestEval, selectedModelEval } from '../../state/engineState.ts';
import type { EvalReport } from '../../worker/protocols/models.ts';
import { useEngine } from '../../state/hooks.ts';
import { ReliabilityDiagram } from '../charts/ReliabilityDiagram.tsx';
import { GeneratorTable } from './GeneratorTable.tsx';
import { attr, fixed, pct } from '../format.ts';

const ci = (i: Interval | undefined): string => (i ? `${i.lo},${i.hi}` : '');
const points = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}`;

/** What the report's figures are over: a validation's questions with both labels (beside `allQuestions`), a test file's every question. */
const reportedQuestions = (selection: SelectionReport): string => `${selection.groups} ${selection.allQuestions ? 'questions with both labels' : 'questions'}`;

/** Each rule with its interval and, for a validation, over every held-out question too. */
function RuleTable({ selection }: { selection: SelectionReport }) {
  const recommended = selection.recommended.rule;
  const all = selection.allQuestions;
  const length = selection.length;
  return (
    <table className="grid-table compact selection-rules">
      <thead>
        <tr>
          <th>Rule</th>
          <th className="num">{all ? `Questions with both labels (${selection.groups})` : `Accuracy (${selection.groups} questions)`}</th>
          <th className="num">95% interval</th>
          {all && <th className="num">All questions ({all.groups})</th>}
        </tr>
      </thead>
      <tbody>
        {/* Reports recorded before a rule existed (the selector) leave it out. */}
        {SELECTION_RULES.filter((r) => selection.rules[r] !== undefined).map((r) => (
          <RuleRow key={r} rule={r} name={RULE_NAMES[r]} figure={selection.rules[r]} all={all ? all.rules[r] : undefined} strong={r === recommended} />
        ))}
        {length &&
          LENGTH_RULES.map((r) => (
            <RuleRow
              key={r}
              rule={r}
              name={LENGTH_RULE_NAMES[r]}
              figure={length.rules[r]}
              all={all ? (length.allQuestions?.rules[r] ?? NaN) : undefined}
              strong={false}
            />
          ))}
      </tbody>
    </table>
  );
}

/** One rule's row: its accuracy and interval and, for a validation (`all` given), its accuracy over every held-out question. */
function RuleRow({
  rule,
  name,
  figure,
  all,
  strong,
}: {
  rule: string;
  name: string;
  figure: SelectionReport['rules'][SelectionRule];
  all: number | undefined;
  strong: boolean;
}) {
  return (
    <tr data-testid="selection-rule" data-rule={rule} data-accuracy={attr(figure.accuracy)} className={strong ? 'strong' : undefined}>
      <th>
        {name}
        {strong ? ' ← use this' : ''}
      </th>
      <td className="num">{pct(figure.accuracy)}</td>
      <td className="num">
        {pct(figure.ci.lo)} – {pct(figure.ci.hi)}
      </td>
      {all !== undefined && (
        <td className="num" data-all-questions={attr(all)}>
          {pct(all)}
        </td>
      )}
    </tr>
  );
}

/** Reports recorded before cross-fitting carry no method, Brier or log loss. */
const crossFitted = (c: Calibration): boolean => typeof c.method === 'string';

/** How the probabilities were calibrated, in words, with Brier and log loss beside ECE (each with its interval). */
function CalibrationLine({ selection }: { selection: SelectionReport }) {
  const c = selection.calibration;
  if (!crossFitted(c))
    return (
      <li className="muted">
        Temperature T = {fixed(selection.temperature, 3)}, {selection.temperatureSource}.
      </li>
    );
  const range = (i: Interval): string => `${fixed(i.lo, 3)}–${fixed(i.hi, 3)}`;
  const mapName = c.map === 'platt' ? "Platt's map of the vote share" : 'the vote share itself';
  return (
    <li data-testid="calibration-line" data-calibration={c.method}>
      {c.method.startsWith('k-fold:') ? (
        <>
          Calibrated on {c.questions} held-out questions, {c.method.slice('k-fold:'.length)} folds (T = {fixed(selection.temperature, 3)}, {mapName}, chosen by
          out-of-fold log loss); every figure below is out of fold: ECE {fixed(c.ece, 3)} ({range(c.eceCi)}), Brier {fixed(c.brier, 3)} ({range(c.brierCi)}),
          log loss {fixed(c.logLoss, 3)} ({range(c.logLossCi)}). The raw vote shares at T = 1: ECE {fixed(c.eceRaw, 3)}, Brier {fixed(c.brierRaw, 3)}, log loss{' '}
          {fixed(c.logLossRaw, 3)}.
        </>
      ) : (
        <>
          Not calibrated ({c.method.replace(/^none: /, '')}): the probabilities are the uncalibrated vote shares at T = 1. ECE {fixed(c.ece, 3)} (
          {range(c.eceCi)}), Brier {fixed(c.brier, 3)}, log loss {fixed(c.logLoss, 3)}.
        </>
      )}
    </li>
  );
}

function SelectionDetails({ selection }: { selection: SelectionReport }) {
  const c = selection.calibration;
  return (
    <div className="selection-details" style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'flex-start' }}>
      <div>
        <RuleTable selection={selection} />
        <ul className="small" style={{ paddingLeft: 18 }}>
          {selection.versusMajority.map((v) => (
            <li
              key={v.rule}
              data-testid="versus-majority"
              data-rule={v.rule}
              data-real={v.real}
              data-difference={attr(v.diff)}
              data-ci={ci(v.ci)}
              data-p={attr(v.p)}
              data-p-adjusted={attr(v.pAdjusted)}
              data-differing={v.differing ?? ''}
            >
              {RULE_NAMES[v.rule]} − majority vote: {points(v.diff)} points (95% interval {points(v.ci.lo)} to {points(v.ci.hi)}
              {v.p === undefined ? '' : `; ${v.differing} questions differ, p = ${fixed(v.pAdjusted, 3)} adjusted`}),{' '}
              {v.real ? 'a real difference' : 'not distinguishable from no difference'}.
            </li>
          ))}
          <CalibrationLine selection={selection} />
          <li className="muted">
            Intervals: bootstrap over the {reportedQuestions(selection)}, {selection.bootstrap.resamples} resamples (seed {selection.bootstrap.seed}; the fitted
            rules refitted in each); tied picks count as a random choice among them.
            {selection.test ? ` "Real": ${selection.test}.` : ''}
          </li>
        </ul>
        {selection.mixedLabelAnswers > 0 && (
          <p className="notice notice-warn small" data-testid="mixed-label-answers" data-count={selection.mixedLabelAnswers}>
            {selection.mixedLabelAnswers} final {selection.mixedLabelAnswers === 1 ? 'answer has' : 'answers have'} candidates labelled both correct and
            incorrect: the app read the same final answer where the labels disagree (the answer matching and your labels differ). Each such answer counts as the
            share of its candidates labelled correct.
          </p>
        )}
      </div>
      <ReliabilityDiagram
        bins={c.bins}
        binsRaw={c.binsRaw}
        ece={c.ece}
        eceRaw={c.eceRaw}
        fitted={crossFitted(c) ? (c.method.startsWith('k-fold:') ? 'out of fold' : null) : `T = ${fixed(selection.temperature, 2)}`}
      />
    </div>
  );
}

/** What a selection report view reads: a model's evaluation, or the scores a file brings (ScoresPanel.tsx). */
export type ReportFigures = Pick<EvalReport, 'summary' | 'selection' | 'allQuestionsAccuracy'>;

/** Which rule to trust on this data: the selected model's latest evaluation, each rule with its interval, and calibration. */
function Summary({ latest }: { latest: LatestEval }) {
  const { report } = latest;
  return (
    <SelectionReportView
      report={report}
      testId="eval-summary"
      set={report.set}
      title={`Which answer to trust: ${report.set === 'val' ? 'validation' : 'test'}, ${latest.model.slot} model`}
    />
  );
}

/** One evaluation's selection report: the sentence, the length check, every rule with its interval, calibration, the generators. */
export function SelectionReportView({ report, testId, set, title }: { report: ReportFigures; testId: string; set: string; title: string }) {
  const sel = report.selection ?? null;
  const b = report.summary.baselines;
  return (
    <section
      className="eval-summary"
      style={{ marginTop: 8 }}
      data-testid={testId}
      data-set={set}
      data-best-of-n={attr(sel?.rules.bestOfN.accuracy ?? report.summary.bestOfN)}
      data-majority={attr(sel?.rules.majority.accuracy ?? b.majorityVote)}
      data-weighted-vote={attr(sel?.rules.weightedVote.accuracy)}
      data-oracle-accuracy={attr(sel?.rules.oracle.accuracy)}
      data-temperature={attr(sel?.temperature)}
      data-ece={attr(sel?.calibration.ece)}
      data-ece-raw={attr(sel?.calibration.eceRaw)}
      data-calibration={sel?.calibration.method ?? ''}
      data-brier={attr(sel?.calibration.brier)}
      data-log-loss={attr(sel?.calibration.logLoss)}
      data-ece-ci={ci(sel?.calibration.eceCi)}
      data-best-verifier-rule={sel?.bestVerifier?.rule ?? ''}
      data-best-verifier-gain={attr(sel?.bestVerifier?.diff)}
      data-best-verifier-gain-ci={ci(sel?.bestVerifier?.ci)}
      data-best-of-n-ci={ci(sel?.rules.bestOfN.ci)}
      data-weighted-vote-ci={ci(sel?.rules.weightedVote.ci)}
      data-all-questions-accuracy={attr(report.allQuestionsAccuracy)}
      data-recommended-rule={sel?.recommended.rule ?? ''}
      data-length-energy-corr={attr(sel?.length?.energyCorr)}
      data-length-label-corr={attr(sel?.length?.labelCorr)}
      data-length-lean-ci={ci(sel?.length?.leanCi)}
      data-energy-gain={attr(sel?.energyGain?.diff)}
      data-energy-gain-ci={ci(sel?.energyGain?.ci)}
      data-energy-gain-real={sel?.energyGain ? String(sel.energyGain.real) : ''}
      data-selector-fields={(sel?.probabilityMap.selectorFields ?? []).join(',')}
    >
      <h3 className="small">{title}</h3>
      {sel ? (
        <>
          <p className="recommendation" data-testid="recommendation">
            {sel.recommended.sentence}
          </p>
          {typeof report.allQuestionsAccuracy === 'number' && sel.allQuestions && (
            <p className="small" data-testid="all-questions-accuracy">
              {RULE_NAMES[sel.recommended.rule]} over all {sel.allQuestions.groups} held-out questions: {pct(report.allQuestionsAccuracy)}. The other validation
              figures (the table above, the sentence, the intervals) are over the {sel.groups} questions with both a right and a wrong answer, where rules
              differ.{sel.singleLabel ? ` ${sel.singleLabel.sentence}` : ''}
            </p>
          )}
          {(sel.probabilityMap.selectorFields ?? []).length > 0 && (
            <p className="small" data-testid="selector-fields">
              The learned selector also read the lines&apos; {(sel.probabilityMap.selectorFields ?? []).join(', ')}, each standardised within its question.
            </p>
          )}
          {sel.energyGain && (
            <p className="small" data-testid="energy-gain" data-real={sel.energyGain.real} data-versus={sel.energyGain.versus}>
              {sel.energyGain.sentence}
            </p>
          )}
          {sel.length && (
            <p className="small" data-testid="length-bias" data-real={sel.length.real} data-lean={attr(sel.length.lean)}>
              {sel.length.sentence}
            </p>
          )}
          <SelectionDetails selection={sel} />
          <GeneratorTable selection={sel} />
        </>
      ) : (
        <p className="muted small">This evaluation has no selection report (it was recorded before them): evaluate again for intervals and calibration.</p>
      )}
    </section>
  );
}

export function SelectionSummary() {
  const latest = useEngine(selectedModelEval);
  return latest ? <Summary latest={latest} /> : null;
}
