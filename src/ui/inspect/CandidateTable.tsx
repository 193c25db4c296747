import { Fragment, useLayoutEffect, useRef, useState } from 'react';
import type { RankedCandidate } from '../../worker/protocols/models.ts';
import { pct, sig } from '../format.ts';
import { type ExplainContext, ExplainButton, ExplainRow } from './ExplainEnergy.tsx';

/** A candidate's text, clamped to two lines; the toggle appears only when something is hidden. */
function CandidateText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const [clipped, setClipped] = useState(false);
  const body = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = body.current;
    if (el && !open) setClipped(el.scrollHeight > el.clientHeight + 1);
  }, [text, open]);
  return (
    <div className={`cand-text ${open ? 'open' : ''}`}>
      <div className="cand-body" ref={body}>
        {text}
      </div>
      {(clipped || open) && (
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'collapse' : 'expand'}
        </button>
      )}
    </div>
  );
}

const labelMark = (l: 0 | 1 | null) => (l === 1 ? '✓' : l === 0 ? '✗' : '—');

/**
 * Candidates exactly in the order the worker sent them (already ranked by energy).
 * `rowTestId` differs between Inspect and Rerank; data-energy keeps full precision.
 */
export function CandidateTable(props: { candidates: RankedCandidate[]; rowTestId: string; showLabel: boolean; explain?: ExplainContext }) {
  const { explain } = props;
  const columns = (props.showLabel ? 9 : 8) + (explain ? 1 : 0);
  return (
    <div className="table-scroll">
      <table className="grid-table candidates">
        <thead>
          <tr>
            <th title="1 = lowest energy = the model's pick">Rank</th>
            <th>#</th>
            <th>Energy</th>
            <th title="Energy minus the best (lowest) energy">ΔE</th>
            <th title="softmax(−E) share within the group">Share</th>
            {props.showLabel && <th>Label</th>}
            <th>Answer</th>
            <th>Tokens</th>
            <th className="wide">Text</th>
            {explain && <th title="What deleting each step or token of the answer does to its energy">Why</th>}
          </tr>
        </thead>
        <tbody>
          {props.candidates.map((c) => (
            <Fragment key={`${c.rank}-${c.index}`}>
              <tr
                data-testid={props.rowTestId}
                data-rank={c.rank}
                data-index={c.index}
                data-energy={String(c.energy)}
                className={c.label === 1 ? 'row-correct' : c.label === 0 ? 'row-wrong' : undefined}
              >
                <td className="num">{c.rank}</td>
                <td className="num muted">{c.index + 1}</td>
                <td className="num">{sig(c.energy, 5)}</td>
                <td className="num">{sig(c.deltaToBest, 3)}</td>
                <td className="num">{pct(c.share)}</td>
                {props.showLabel && (
                  <td
                    className={`label-mark ${c.label === 1 ? 'good' : c.label === 0 ? 'bad' : ''}`}
                    aria-label={c.label === 1 ? 'correct' : c.label === 0 ? 'incorrect' : 'unlabelled'}
                  >
                    {labelMark(c.label)}
                  </td>
                )}
                <td>{c.answer ?? <span className="muted">—</span>}</td>
                <td className="num" title={c.truncated ? 'cut at max length' : undefined}>
                  {c.tokens}
                  {c.truncated ? '✂' : ''}
                </td>
                <td className="wide">
                  <CandidateText text={c.text} />
                </td>
                {explain && (
                  <td>
                    <ExplainButton context={explain} candidate={c} />
                  </td>
                )}
              </tr>
              {explain && <ExplainRow context={explain} candidate={c} columns={columns} />}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
