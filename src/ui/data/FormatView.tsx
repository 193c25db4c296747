import type { DataRole, DatasetSummary } from '../../worker/protocols/data.ts';
import { Stat } from '../common/Stat.tsx';
import { attr, bytes, fixed, int, pct } from '../format.ts';
import { RejectedLines } from './RejectedLines.tsx';

/** What the readers detected and mapped, in one sentence (formats/describe.ts writes it). */
export function FormatLine({ summary }: { summary: DatasetSummary }) {
  if (!summary.mapping) return null;
  return (
    <p className="small" data-testid="dataset-format">
      Read as {summary.mapping}.
    </p>
  );
}

/** A set without labels or gold answers: its counts, why it cannot be trained on, and its rejected lines. */
export function PicksBody({ role, summary: s }: { role: DataRole; summary: DatasetSummary }) {
  const st = s.stats;
  return (
    <>
      <p className="file-line">
        <strong>{s.name}</strong> · {bytes(s.bytes)} · read in {fixed(s.timing.parseSeconds, 1)} s
      </p>
      <dl className="stats">
        <LineStats lines={st.lines} />
        <Stat label="Questions">{int(st.groups)}</Stat>
        <Stat label="Candidates">{int(st.candidates)}</Stat>
        <Stat label="Per question min / med / max">
          <GroupSizes cpg={st.candidatesPerGroup} />
        </Stat>
      </dl>
      <p className="notice notice-warn small" data-testid="picks-only-reason">
        No line has a label or a gold answer, so there is nothing to train or evaluate on: this set is for Pick answers.
        {role === 'train' ? ' Load a labelled file to train.' : ''}
      </p>
      <RejectedLines role={role} summary={s} />
    </>
  );
}

/** One row per source (generator, else file): its candidates and the share labelled correct. */
export function SourceList({ summary }: { summary: DatasetSummary }) {
  const rows = summary.sourceRows ?? [];
  if (rows.length === 0) return null;
  return (
    <ul className="small source-list">
      {rows.map((r) => (
        <li key={r.source} data-testid="dataset-source" data-source={r.source} data-candidates={r.candidates} data-correct-share={attr(r.correctShare)}>
          <code>{r.source}</code>: {int(r.candidates)} candidates{r.correctShare === null ? '' : `, ${pct(r.correctShare)} correct`}
        </li>
      ))}
    </ul>
  );
}

/** Lines read, accepted and rejected: every summary starts with them. */
export function LineStats({ lines }: { lines: DatasetSummary['stats']['lines'] }) {
  return (
    <>
      <Stat label="Lines read">{int(lines.read)}</Stat>
      <Stat label="Accepted">{int(lines.accepted)}</Stat>
      <Stat label="Rejected" tone={lines.rejected > 0 ? 'warn' : undefined}>
        {int(lines.rejected)}
      </Stat>
    </>
  );
}

/** Candidates per question: min / median / max. */
export function GroupSizes({ cpg }: { cpg: DatasetSummary['stats']['candidatesPerGroup'] }) {
  return (
    <>
      {int(cpg.min)} / {fixed(cpg.median, cpg.median % 1 === 0 ? 0 : 1)} / {int(cpg.max)}
    </>
  );
}
