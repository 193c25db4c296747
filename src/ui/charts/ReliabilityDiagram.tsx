/**
 * Reliability diagram: for each bin of the picked answers' probability, the mean probability (x) against
 * the share of those picks that were right (y), calibrated (out of fold) and the raw vote shares at T = 1.
 * Points on the diagonal are calibrated. Plain SVG: placing a dozen points is drawing, not statistics.
 */
import type { ReliabilityBin } from '../../engine/metrics/selectionTypes.ts';
import { fixed, pct } from '../format.ts';
import { COLORS } from './chartStyle.ts';

const SIZE = 160;
const PAD = 26;
const span = SIZE - 2 * PAD;
const x = (p: number) => PAD + p * span;
const y = (p: number) => SIZE - PAD - p * span;

function Series({ bins, color, name, dashed }: { bins: ReliabilityBin[]; color: string; name: string; dashed?: boolean }) {
  const shown = bins.filter((b) => b.count > 0 && Number.isFinite(b.confidence) && Number.isFinite(b.accuracy));
  return (
    <g data-series={name}>
      <polyline
        fill="none"
        stroke={color}
        strokeWidth={1.5}
        strokeDasharray={dashed ? '4 3' : undefined}
        points={shown.map((b) => `${x(b.confidence)},${y(b.accuracy)}`).join(' ')}
      />
      {shown.map((b, i) => (
        <circle key={i} cx={x(b.confidence)} cy={y(b.accuracy)} r={2.5} fill={dashed ? 'white' : color} stroke={color}>
          <title>{`${name}, probability ${b.lo.toFixed(1)}–${b.hi.toFixed(1)}: ${b.count} picks, mean probability ${pct(b.confidence)}, right ${pct(b.accuracy)}`}</title>
        </circle>
      ))}
    </g>
  );
}

interface Props {
  bins: ReliabilityBin[];
  binsRaw: ReliabilityBin[];
  ece: number;
  eceRaw: number;
  /** What the calibrated series is ("out of fold"; "T = 0.42" in reports recorded before cross-fitting); null: nothing calibrated, the raw shares alone. */
  fitted: string | null;
}

export function ReliabilityDiagram({ bins, binsRaw, ece, eceRaw, fitted }: Props) {
  const caption =
    fitted === null
      ? `Reliability of the weighted vote's uncalibrated shares at T = 1 (ECE ${fixed(eceRaw, 3)})`
      : `Reliability of the weighted vote's probability: calibrated, ${fitted} (ECE ${fixed(ece, 3)}), and the raw shares at T = 1 (ECE ${fixed(eceRaw, 3)})`;
  return (
    <figure className="reliability" data-testid="reliability-diagram" data-bins={bins.length}>
      <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={caption}>
        <rect x={PAD} y={PAD} width={span} height={span} fill="none" stroke="#d0d7de" />
        <line x1={x(0)} y1={y(0)} x2={x(1)} y2={y(1)} stroke="#9ca3af" strokeDasharray="2 2" />
        {[0, 0.5, 1].map((t) => (
          <g key={t} fontSize={8} fill="#57606a">
            <text x={x(t)} y={SIZE - PAD + 10} textAnchor="middle">{`${t * 100}%`}</text>
            <text x={PAD - 3} y={y(t) + 3} textAnchor="end">{`${t * 100}%`}</text>
          </g>
        ))}
        <text x={SIZE / 2} y={SIZE - 3} textAnchor="middle" fontSize={8} fill="#57606a">
          probability of the pick
        </text>
        <text x={8} y={SIZE / 2} fontSize={8} fill="#57606a" textAnchor="middle" transform={`rotate(-90 8 ${SIZE / 2})`}>
          share right
        </text>
        <Series bins={binsRaw} color={COLORS.first} name="uncalibrated shares (T = 1)" dashed />
        {fitted !== null && <Series bins={bins} color={COLORS.weighted} name={`calibrated, ${fitted}`} />}
      </svg>
      <figcaption className="small">
        {fitted !== null && (
          <>
            <span style={{ color: COLORS.weighted }}>●</span> calibrated, {fitted}, ECE {fixed(ece, 3)} ·{' '}
          </>
        )}
        <span style={{ color: COLORS.first }}>○</span> uncalibrated shares (T = 1), ECE {fixed(eceRaw, 3)}
      </figcaption>
    </figure>
  );
}
