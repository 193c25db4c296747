import { describe, expect, it } from 'vitest';
import { Session } from './session.ts';
import { file, sampleLines, tinySettings } from './testing/sessionHarness.ts';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';

describe('Session: the scoring peers', () => {
  it('start once a training file is in, not before: a run started later finds them running', async () => {
    let asked = 0;
    const session = new Session(
      () => undefined,
      () => inProcessPool(),
      () => null,
      undefined,
      () => (asked++, []),
    );
    await session.handle({ type: 'estimate', settings: tinySettings({}) });
    expect(asked).toBe(0);
    await session.handle({ type: 'loadData', role: 'train', source: file(sampleLines(0, 8)) });
    expect(asked).toBe(1);
  });
});
