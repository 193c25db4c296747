/**
 * Issue 46's targets for the GPU bench (`gpu.bench.ts --precision both`, run by gpuKit/measure.sh): per
 * preset the app in float32 and in f16 against PyTorch's three modes (python/eorm/bench_modes.py) on the
 * same GPU, data and run, as one table with each target's verdict. No I/O: the bench hands the figures in.
 */

/** One PyTorch mode's figures, or why it did not run. */
export type TorchMode =
  { label: string; optimizer?: string; train: { tokensPerSec: number }; peakBytes?: number; peakReservedBytes?: number } | { skipped: string };

/** `python -m eorm.bench --device cuda`'s answer (its `modes`), or why PyTorch did not run. */
export interface TorchRun {
  torch: string;
  deviceName: string;
  modes: Record<string, TorchMode>;
}

/** One app run as the table needs it. */
export interface AppFigures {
  tokensPerSec: number;
  /** GPU bytes the run held at most: the buffer pool's peak plus the recorded steps' buffers. */
  peakBytes: number | null;
  /** The validation at the end of epoch 1. */
  epoch1: { bestOfN: number; btLoss: number } | null;
}

export interface PresetFigures {
  preset: string;
  f32: AppFigures | null;
  /** null where the GPU has no shader-f16 (the app then runs float32 only). */
  f16: AppFigures | null;
  torch: TorchRun | string;
}

/** What the table needs of an app run (bench/appRun.ts's AppRun). */
export interface AppRunLike {
  preset: string;
  halfPrecision?: boolean;
  epoch1?: { bestOfN: number; btLoss: number } | null;
  train: { window: { tokensPerSec: number } };
  counters: { replay: boolean; gpuPeakBytesAllocated: number | null; captureBytes: number };
}

/** Per preset, the replayed runs (the app's default) in f16 and float32 with PyTorch's figures, as the bench wrote them. */
export function presetsFromRuns(runs: readonly AppRunLike[], torch: Record<string, TorchRun | string>): PresetFigures[] {
  const figures = (r: AppRunLike | undefined): AppFigures | null =>
    r
      ? {
          tokensPerSec: r.train.window.tokensPerSec,
          peakBytes: r.counters.gpuPeakBytesAllocated === null ? null : r.counters.gpuPeakBytesAllocated + r.counters.captureBytes,
          epoch1: r.epoch1 ?? null,
        }
      : null;
  const replayed = runs.filter((r) => r.counters.replay);
  return [...new Set(replayed.map((r) => r.preset))].map((preset) => ({
    preset,
    f16: figures(replayed.find((r) => r.preset === preset && r.halfPrecision)),
    f32: figures(replayed.find((r) => r.preset === preset && !r.halfPrecision)),
    torch: torch[preset] ?? 'not run',
  }));
}

/** The bars: the issue's, and for "within noise" the recipe bench's bar between two runs of one recipe. */
export const TARGETS = { overGraphs: 1.0, overAmp: 1.5, memoryOverAmp: 1.5, bestOfNPoints: 4, btLoss: 0.02 } as const;

const tps = (m: TorchMode | undefined) => (m && 'train' in m ? m.train.tokensPerSec : null);
const f0 = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const mib = (x: number | null | undefined) => (x == null ? '–' : `${f0(x / 2 ** 20)} MiB`);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The app's best run (f16 where it ran, else float32). */
export function appBest(p: PresetFigures): AppFigures | null {
  return p.f16 ?? p.f32;
}

/** Each target for one preset, in words: [what, figure, verdict]. Paper presets carry the speed and memory targets. */
export function presetVerdicts(p: PresetFigures): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = [];
  const app = appBest(p);
  const torch = typeof p.torch === 'string' ? null : p.torch;
  const [amp, graphs] = [torch?.modes.amp, torch?.modes.graphs];
  if (p.preset.startsWith('paper') && app) {
    const g = tps(graphs);
    out.push([
      'app ÷ PyTorch AMP + CUDA graphs',
      g ? `${(app.tokensPerSec / g).toFixed(2)}×` : `no figure (${graphs && 'skipped' in graphs ? graphs.skipped : 'PyTorch did not run'})`,
      g ? verdict(app.tokensPerSec / g >= TARGETS.overGraphs) : 'not measured',
    ]);
    const a = tps(amp);
    out.push([
      'app ÷ PyTorch AMP eager',
      a ? `${(app.tokensPerSec / a).toFixed(2)}×` : 'no figure',
      a ? verdict(app.tokensPerSec / a >= TARGETS.overAmp) : 'not measured',
    ]);
    const ampPeak = amp && 'train' in amp ? amp.peakReservedBytes : undefined;
    out.push([
      'app peak GPU memory ÷ PyTorch AMP peak (reserved)',
      app.peakBytes && ampPeak ? `${mib(app.peakBytes)} ÷ ${mib(ampPeak)} = ${(app.peakBytes / ampPeak).toFixed(2)}` : 'no figure',
      app.peakBytes && ampPeak ? verdict(app.peakBytes / ampPeak <= TARGETS.memoryOverAmp) : 'not measured',
    ]);
  } else if (p.f16 && p.f32) {
    // Tiny and small: no slower than today's path, which is the float32 one in the same run.
    out.push([
      'app f16 ÷ app float32 (today’s path)',
      `${(p.f16.tokensPerSec / p.f32.tokensPerSec).toFixed(2)}×`,
      verdict(p.f16.tokensPerSec >= p.f32.tokensPerSec),
    ]);
  }
  const [a16, a32] = [p.f16?.epoch1, p.f32?.epoch1];
  if (a16 && a32) {
    const [dBon, dLoss] = [100 * (a16.bestOfN - a32.bestOfN), a16.btLoss - a32.btLoss];
    out.push([
      'f16 vs float32 validation after epoch 1 (Δ Best-of-N points, Δ loss)',
      `${dBon.toFixed(2)}, ${dLoss.toFixed(4)}`,
      verdict(Math.abs(dBon) <= TARGETS.bestOfNPoints && Math.abs(dLoss) <= TARGETS.btLoss),
    ]);
  }
  return out;
}

/** The whole table: figures per preset, then every target with its verdict. */
export function targetTable(presets: PresetFigures[]): string[] {
  const lines = [
    '| preset | app float32 tok/s | app f16 tok/s | PyTorch eager f32 | PyTorch AMP | PyTorch AMP + graphs | app peak | PyTorch AMP peak (reserved) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const p of presets) {
    const torch = typeof p.torch === 'string' ? null : p.torch;
    const mode = (name: string) => {
      const m = torch?.modes[name];
      if (!m) return typeof p.torch === 'string' ? p.torch : '–';
      return 'skipped' in m ? `– (${m.skipped})` : f0(m.train.tokensPerSec);
    };
    const amp = torch?.modes.amp;
    lines.push(
      `| ${p.preset} | ${p.f32 ? f0(p.f32.tokensPerSec) : '–'} | ${p.f16 ? f0(p.f16.tokensPerSec) : '– (no shader-f16)'} | ${mode('eager')} | ${mode('amp')} | ${mode('graphs')} | ${mib(appBest(p)?.peakBytes)} | ${mib(amp && 'train' in amp ? amp.peakReservedBytes : null)} |`,
    );
  }
  lines.push('', '| preset | target | figure | verdict |', '|---|---|---|---|');
  for (const p of presets) {
    const verdicts = presetVerdicts(p);
    // Tiny or small without an f16 run (no shader-f16): no target has two figures to compare.
    if (verdicts.length === 0) lines.push(`| ${p.preset} | every target | no f16 run to set against float32, no PyTorch figure it needs | not measured |`);
    for (const [what, figure, v] of verdicts) lines.push(`| ${p.preset} | ${what} | ${figure} | ${v} |`);
  }
  return lines;
}
