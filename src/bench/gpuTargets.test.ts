import { describe, expect, it } from 'vitest';
import { type PresetFigures, presetVerdicts, targetTable } from './gpuTargets.ts';

const MiB = 2 ** 20;
const torch = (eager: number, amp: number, graphs: number | string, ampPeak: number) => ({
  torch: '2.11',
  deviceName: 'H200',
  modes: {
    eager: { label: 'eager float32', train: { tokensPerSec: eager }, peakBytes: 1, peakReservedBytes: 1 },
    amp: { label: 'AMP', train: { tokensPerSec: amp }, peakBytes: ampPeak / 2, peakReservedBytes: ampPeak },
    graphs: typeof graphs === 'string' ? { skipped: graphs } : { label: 'AMP + graphs', train: { tokensPerSec: graphs }, peakReservedBytes: ampPeak },
  },
});

describe('the GPU targets table', () => {
  it('judges paper@512 against AMP + graphs, AMP and AMP’s memory, and f16’s validation against float32’s', () => {
    const p: PresetFigures = {
      preset: 'paper@512',
      f32: { tokensPerSec: 90_000, peakBytes: 900 * MiB, epoch1: { bestOfN: 0.6, btLoss: 0.5 } },
      f16: { tokensPerSec: 160_000, peakBytes: 1000 * MiB, epoch1: { bestOfN: 0.62, btLoss: 0.51 } },
      torch: torch(50_000, 100_000, 150_000, 800 * MiB),
    };
    expect(presetVerdicts(p)).toEqual([
      ['app ÷ PyTorch AMP + CUDA graphs', '1.07×', 'met'],
      ['app ÷ PyTorch AMP eager', '1.60×', 'met'],
      ['app peak GPU memory ÷ PyTorch AMP peak (reserved)', '1,000 MiB ÷ 800 MiB = 1.25', 'met'],
      ['f16 vs float32 validation after epoch 1 (Δ Best-of-N points, Δ loss)', '2.00, 0.0100', 'met'],
    ]);
  });

  it('says NOT met where a bar is missed, and not measured where PyTorch could not run a mode', () => {
    const p: PresetFigures = {
      preset: 'paper@512',
      f32: { tokensPerSec: 90_000, peakBytes: 2000 * MiB, epoch1: { bestOfN: 0.6, btLoss: 0.5 } },
      f16: { tokensPerSec: 120_000, peakBytes: 2000 * MiB, epoch1: { bestOfN: 0.5, btLoss: 0.5 } },
      torch: torch(50_000, 100_000, 'torch 1.13 cannot', 1000 * MiB),
    };
    const v = presetVerdicts(p).map(([what, figure, verdict]) => `${what}: ${figure}: ${verdict}`);
    expect(v[0]).toBe('app ÷ PyTorch AMP + CUDA graphs: no figure (torch 1.13 cannot): not measured');
    expect(v[1]).toBe('app ÷ PyTorch AMP eager: 1.20×: NOT met');
    expect(v[2]).toMatch(/= 2.00: NOT met$/);
    expect(v[3]).toMatch(/-10.00, 0.0000: NOT met$/);
  });

  it('judges tiny and small as no slower than the float32 path, and runs without f16 or PyTorch', () => {
    expect(
      presetVerdicts({
        preset: 'tiny',
        f32: { tokensPerSec: 300_000, peakBytes: null, epoch1: null },
        f16: { tokensPerSec: 290_000, peakBytes: null, epoch1: null },
        torch: 'no Python with torch',
      }),
    ).toEqual([['app f16 ÷ app float32 (today’s path)', '0.97×', 'NOT met']]);
    const table = targetTable([
      { preset: 'small', f32: { tokensPerSec: 200_000, peakBytes: 5 * MiB, epoch1: null }, f16: null, torch: 'torch sees no CUDA device' },
    ]);
    expect(table[2]).toBe(
      '| small | 200,000 | – (no shader-f16) | torch sees no CUDA device | torch sees no CUDA device | torch sees no CUDA device | 5 MiB | – |',
    );
    expect(table.at(-1)).toBe('| small | every target | no f16 run to set against float32, no PyTorch figure it needs | not measured |');
  });
});
