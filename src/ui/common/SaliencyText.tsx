import type { CandidateSaliency, DeletionEffect } from '../../engine/score/explainEnergy.ts';
import { sig } from '../format.ts';

/**
 * A diverging scale that stays readable with red–green colour blindness: orange for pieces whose deletion
 * lowers the energy (the verifier holds them against the answer), blue for pieces whose deletion raises it
 * (they count for the answer). The worker sends each piece's shade in [−1, 1] (+1: against); the piece
 * with the grain's largest change is fully coloured.
 */
const FOR = '33, 102, 172';
const AGAINST = '230, 97, 1';
const MAX_ALPHA = 0.8;

const background = (shade: number) => `rgba(${shade < 0 ? FOR : AGAINST}, ${(Math.abs(shade) * MAX_ALPHA).toFixed(3)})`;

const signed = (x: number) => `${x > 0 ? '+' : ''}${sig(x, 3)}`;

function Legend({ scale }: { scale: number }) {
  const stops = [-1, -0.5, 0, 0.5, 1].map((s) => `${background(s)} ${((s + 1) * 50).toFixed(0)}%`).join(', ');
  return (
    <div className="row small" data-testid="saliency-legend" style={{ alignItems: 'center', gap: 8, margin: '4px 0' }}>
      <span>deleting it raises the energy by {sig(scale, 3)} (counts for the answer)</span>
      <span
        aria-hidden
        style={{ display: 'inline-block', width: 120, height: 10, border: '1px solid #ccc', background: `linear-gradient(to right, ${stops})` }}
      />
      <span>lowers it by {sig(scale, 3)} (counts against)</span>
    </div>
  );
}

function Step({ step, distrusted }: { step: DeletionEffect; distrusted: boolean }) {
  return (
    <div
      data-testid="saliency-step"
      data-delta={String(step.delta)}
      data-start={step.start}
      data-end={step.end}
      data-distrusted={distrusted}
      className="row"
      style={{ alignItems: 'baseline', gap: 8, margin: '2px 0' }}
    >
      <span
        className="small"
        style={{ minWidth: '6em', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}
        title="energy without this step − the candidate's energy"
      >
        {signed(step.delta)}
      </span>
      <span
        style={{ background: background(step.shade), borderRadius: 2, whiteSpace: 'pre-wrap', outline: distrusted ? '2px solid rgb(230, 97, 1)' : undefined }}
      >
        {step.text.trimEnd()}
      </span>
      {distrusted && <strong className="small">distrusted most</strong>}
    </div>
  );
}

function Token({ token }: { token: DeletionEffect }) {
  return (
    <span
      data-testid="saliency-token"
      data-score={String(token.delta)}
      data-start={token.start}
      data-end={token.end}
      title={`${JSON.stringify(token.text)}: energy without it ${signed(token.delta)}`}
      style={{ background: background(token.shade), borderRadius: 2 }}
    >
      {token.text}
    </span>
  );
}

/** One candidate's answer, step by step and then token by token, each piece coloured by what deleting it does to the energy. */
export function SaliencyText({ saliency }: { saliency: CandidateSaliency }) {
  const { steps, tokens, distrusted, focus } = saliency;
  return (
    <div className="saliency" data-testid="saliency-text" data-energy={String(saliency.energy)}>
      <p className="small muted">
        Energy {sig(saliency.energy, 5)}. Each piece of the answer was deleted and the rest scored again: its number is the energy without it minus this energy.
        Orange: deleting it lowers the energy, so the verifier holds it against the answer; blue: deleting it raises the energy, so it counts for the answer.
        Full colour is the largest change in the list.
        {saliency.truncated
          ? ` The input was cut at ${saliency.tokensRead} tokens: the model read the first ${saliency.answerCharsRead} characters of the answer, and each piece was deleted from those alone; the rest was not read, nor explained.`
          : ''}
        {saliency.capped.map((c) => ` ${c}`).join('')}
      </p>
      {steps.length === 0 ? (
        <p className="notice small" data-testid="saliency-unread">
          {saliency.answerCharsRead === 0 && saliency.truncated
            ? `The model read none of this answer: [CLS], the question and [SEP] fill its ${saliency.tokensRead} tokens. Nothing in the answer explains this energy.`
            : 'The answer is blank: there is nothing to delete.'}
        </p>
      ) : (
        <>
          <div className="small">
            <strong>Steps</strong> (lines and sentences){distrusted === null ? ': deleting none of them lowers the energy.' : ''}
          </div>
          <Legend scale={saliency.scales.steps} />
          {steps.map((s, i) => (
            <Step key={s.start} step={s} distrusted={i === distrusted} />
          ))}
        </>
      )}
      {tokens.length > 0 && (
        <>
          <div className="small" style={{ marginTop: 8 }}>
            <strong>Tokens</strong> {focus.step === null ? 'of the answer' : `of step ${focus.step + 1}`} (hover for the value)
          </div>
          <Legend scale={saliency.scales.tokens} />
          <div style={{ whiteSpace: 'pre-wrap', lineHeight: 1.6 }}>
            {tokens.map((t) => (
              <Token key={t.start} token={t} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
