import type { DataRole } from '../../worker/protocols/data.ts';
import type { DataSlot } from '../../state/engineState.ts';
import { BarHistogram } from '../common/BarHistogram.tsx';
import { Stat } from '../common/Stat.tsx';
import { bytes, fixed, int, pct } from '../format.ts';
import { AnswerStatsView } from './AnswerStatsView.tsx';
import { RejectedLines } from './RejectedLines.tsx';
import { FormatLine, GroupSizes, LineStats, PicksBody, SourceList } from './FormatView.tsx';

/**
 * Everything the worker reported about one loaded file. The outer element always renders, with
 * data-* attributes for scripts; a failed reload keeps the previous summary on screen.
 */
export function DatasetSummaryView(props: { role: DataRole; slot: DataSlot; testId: string }) {
  const { slot, role } = props;
  const s = slot.summary;
  return (
    <div
      className="dataset-summary"
      data-testid={props.testId}
      data-status={slot.status}
      data-lines={s?.stats.lines.read ?? ''}
      data-groups={s?.stats.groups ?? ''}
      data-trainable-groups={s?.trainableGroups ?? ''}
      data-rejected={s?.stats.lines.rejected ?? ''}
      data-format={s?.format ?? ''}
      data-files={s?.files?.join('\n') ?? ''}
      data-labels-from={s?.labelsFrom ?? ''}
      data-label-disagreements={s ? s.stats.answers.labelGoldDisagreements : ''}
    >
      {slot.note && (
        <p className="notice notice-warn small" data-testid="data-note">
          {slot.note}
        </p>
      )}
      {slot.lastError && (
        <p className="notice notice-error small" data-testid="load-error">
          Loading failed: {slot.lastError}
        </p>
      )}
      {!s ? (
        slot.status === 'loading' ? null : (
          <p className="muted">{role === 'train' ? 'No training data loaded yet.' : 'No test set (optional).'}</p>
        )
      ) : (
        <>
          <FormatLine summary={s} />
          {s.labelsFrom === 'none' ? <PicksBody role={role} summary={s} /> : <SummaryBody role={role} slot={slot} />}
          <SourceList summary={s} />
        </>
      )}
    </div>
  );
}

function SummaryBody({ role, slot }: { role: DataRole; slot: DataSlot }) {
  const s = slot.summary!;
  const st = s.stats;
  const cpg = st.candidatesPerGroup;
  const tk = s.tokens;
  const edges = tk.histogram.edges;
  const tokenBars = tk.histogram.counts.map((count, i) => ({ label: `${edges[i]}–${edges[i + 1]}`, count }));
  // Where maxLen falls on the drawn axis (the bins can extend past it to the longest candidate).
  const axisEnd = edges[edges.length - 1] ?? 0;
  const markerAt = axisEnd > 0 ? tk.maxLen / axisEnd : 1;
  return (
    <>
      <p className="file-line">
        <strong>{s.name}</strong> · {bytes(s.bytes)} · parsed in {fixed(s.timing.parseSeconds, 1)} s, tokenized in {fixed(s.timing.tokenizeSeconds, 1)} s (
        {s.timing.workers} {s.timing.workers === 1 ? 'worker' : 'workers'})
      </p>
      <dl className="stats">
        <LineStats lines={st.lines} />
        <Stat label="Blank">{int(st.lines.blank)}</Stat>
        <Stat label="Invalid UTF-8" tone={st.lines.invalidUtf8 > 0 ? 'warn' : undefined}>
          {int(st.lines.invalidUtf8)}
        </Stat>
        <Stat label="Groups (questions)">{int(st.groups)}</Stat>
        <Stat label="Candidates">{int(st.candidates)}</Stat>
        <Stat label="Per group min / med / max">
          <GroupSizes cpg={cpg} />
        </Stat>
        <Stat label="Share correct">{pct(st.shareCorrect)}</Stat>
        <Stat label="Both labels" title="Groups with a correct and an incorrect candidate: only these carry a training loss">
          {int(st.groupsBothLabels)}
        </Stat>
        <Stat label="All correct">{int(st.groupsAllCorrect)}</Stat>
        <Stat label="All wrong">{int(st.groupsAllWrong)}</Stat>
        <Stat label="Oracle" title="Groups with at least one correct candidate: the ceiling for any reranker">
          {pct(st.oracle)}
        </Stat>
        <Stat label="First candidate">{pct(st.firstCandidate)}</Stat>
        <Stat label="Majority vote" title={`${int(st.candidatesWithAnswer)} candidates have a final answer to vote on`}>
          {pct(st.majorityVote)}
        </Stat>
        <AnswerStatsView answers={st.answers} name={s.name} />
        {role === 'train' && (
          <Stat label="Trainable groups" tone={s.trainableGroups === 0 ? 'warn' : undefined}>
            {int(s.trainableGroups)}
          </Stat>
        )}
        {s.split && (
          <Stat label="Split train / val" title={`seeded by ${s.split.seed}, by group`}>
            {int(s.split.train)} / {int(s.split.val)}
          </Stat>
        )}
      </dl>
      <div className="histograms">
        <BarHistogram caption="Candidates per group" unit="groups" bars={cpg.histogram.map((h) => ({ label: String(h.size), count: h.groups }))} />
        <BarHistogram
          caption={`Token lengths (min ${int(tk.min)}, median ${int(tk.median)}, mean ${fixed(tk.mean, 0)}, max ${int(tk.max)}); ${int(tk.truncated)} cut at maxLen`}
          unit="candidates"
          bars={tokenBars}
          marker={{ label: `maxLen ${tk.maxLen}`, at: markerAt }}
          axis={[String(edges[0] ?? 0), `${axisEnd} tokens`]}
        />
      </div>
      {role === 'train' && s.trainableGroups === 0 && (
        <p className="notice notice-warn small">No group has both a correct and an incorrect answer: there is nothing to train on.</p>
      )}
      <RejectedLines role={role} summary={s} />
    </>
  );
}
