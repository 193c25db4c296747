import { useState } from 'react';
import type { DataRole, DatasetSummary } from '../../worker/protocols/data.ts';
import { useEngine } from '../../state/hooks.ts';
import { downloadErrors } from '../../client/commands.ts';
import { int } from '../format.ts';

type Format = 'csv' | 'text' | 'jsonl';

/** Why lines were rejected: counts per kind, the first 200 in a table, and the full list on request. */
export function RejectedLines(props: { role: DataRole; summary: DatasetSummary }) {
  const { summary } = props;
  const [format, setFormat] = useState<Format>('csv');
  const pending = useEngine((s) => s.pending.downloadErrors === true);
  const rejected = summary.stats.lines.rejected;
  if (rejected === 0) return <p className="muted">No rejected lines.</p>;
  const kinds = Object.entries(summary.errorCounts).filter(([, n]) => n > 0);
  return (
    <div className="rejected">
      <h4>
        Rejected lines: {int(rejected)}
        {summary.firstErrors.length < rejected ? ` (first ${summary.firstErrors.length} shown)` : ''}
      </h4>
      <ul className="kinds">
        {kinds.map(([kind, n]) => (
          <li key={kind}>
            <code>{kind}</code> {int(n)}
          </li>
        ))}
      </ul>
      <div className="table-scroll short">
        <table className="grid-table">
          <thead>
            <tr>
              <th>Line</th>
              <th>Field</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {summary.firstErrors.map((e, i) => (
              <tr key={i} data-testid={i === 0 ? 'first-error' : undefined} data-line={i === 0 ? e.line : undefined}>
                <td className="num">{e.line}</td>
                <td>
                  <code>{e.field}</code>
                </td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        <label>
          Format{' '}
          <select value={format} onChange={(e) => setFormat(e.target.value as Format)}>
            <option value="csv">CSV</option>
            <option value="jsonl">JSONL</option>
            <option value="text">text</option>
          </select>
        </label>
        <button type="button" data-testid="download-errors" onClick={() => downloadErrors(props.role, format)}>
          {pending ? 'Preparing…' : 'Download full list'}
        </button>
      </div>
    </div>
  );
}
