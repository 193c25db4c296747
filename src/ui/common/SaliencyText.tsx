import type { CandidateSaliency, SaliencyPiece } from '../../engine/train/explainEnergy.ts';
import { sig } from '../format.ts';

/**
 * A diverging scale that stays readable with red–green colour blindness: blue for pieces that lower the
 * energy (count for the answer), orange for pieces that raise it (count against). The worker sends each
 * piece's shade in [−1, 1]; the strongest text piece is fully coloured.
 */
const LOWERS = '33, 102, 172';
const RAISES = '230, 97, 1';
const MAX_ALPHA = 0.8;

const background = (shade: number) => `rgba(${shade < 0 ? LOWERS : RAISES}, ${(Math.abs(shade) * MAX_ALPHA).toFixed(3)})`;

const PART_NAME: Record<SaliencyPiece['part'], string> = { cls: 'CLS token', question: 'question', sep: 'separator', answer: 'answer' };

function Piece({ piece }: { piece: SaliencyPiece }) {
  const special = piece.part === 'cls' || piece.part === 'sep';
  const tokens = piece.tokens > 1 ? ` (${piece.tokens} tokens)` : '';
  return (
    <span
      data-testid="saliency-token"
      data-score={String(piece.score)}
      data-part={piece.part}
      title={`${JSON.stringify(piece.text)} · ${PART_NAME[piece.part]}${tokens}: ${sig(piece.score, 4)}`}
      className={special ? 'saliency-special' : undefined}
      style={{ background: background(piece.shade), borderRadius: 2, ...(special ? { fontSize: '0.8em', opacity: 0.8, margin: '0 2px' } : {}) }}
    >
      {piece.text}
    </span>
  );
}

function Legend({ scale }: { scale: number }) {
  const stops = [-1, -0.5, 0, 0.5, 1].map((s) => `${background(s)} ${((s + 1) * 50).toFixed(0)}%`).join(', ');
  return (
    <div className="row small" data-testid="saliency-legend" style={{ alignItems: 'center', gap: 8, margin: '4px 0' }}>
      <span>lowers the energy (for this answer) −{sig(scale, 3)}</span>
      <span aria-hidden style={{ display: 'inline-block', width: 120, height: 10, border: '1px solid #ccc', background: `linear-gradient(to right, ${stops})` }} />
      <span>+{sig(scale, 3)} raises it (against)</span>
    </div>
  );
}

/** One candidate's text coloured by each piece's share of its energy (gradient × input, per token); values on hover. */
export function SaliencyText({ saliency }: { saliency: CandidateSaliency }) {
  const question = saliency.pieces.filter((p) => p.part !== 'answer');
  const answer = saliency.pieces.filter((p) => p.part === 'answer');
  return (
    <div className="saliency" data-testid="saliency-text" data-energy={String(saliency.energy)}>
      <p className="small muted">
        Energy {sig(saliency.energy, 5)}. Each piece is coloured by gradient × input of the energy at its token embedding (summed over
        the embedding): how much it pushes the energy up or down. Hover for the value.
        {saliency.truncated ? ` The input was cut at ${saliency.tokens} tokens: the rest was not read.` : ''}
      </p>
      <Legend scale={saliency.scale} />
      <div className="small" style={{ whiteSpace: 'pre-wrap', lineHeight: 1.6 }}>
        <strong>Question </strong>
        {question.map((p, i) => (
          <Piece key={i} piece={p} />
        ))}
      </div>
      <div style={{ whiteSpace: 'pre-wrap', lineHeight: 1.6, marginTop: 4 }}>
        <strong className="small">Answer </strong>
        {answer.map((p, i) => (
          <Piece key={i} piece={p} />
        ))}
      </div>
    </div>
  );
}
