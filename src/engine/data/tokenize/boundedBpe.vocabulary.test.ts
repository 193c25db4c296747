import { encode } from 'gpt-tokenizer/encoding/r50k_base';
import { afterEach, expect, it, vi } from 'vitest';

afterEach(() => vi.restoreAllMocks());

/** A fresh boundedBpe module (its vocabulary not built yet), with the UTF-8 encodes it makes counted. */
async function freshCounted() {
  vi.resetModules();
  const encodes = { calls: 0 };
  const original = TextEncoder.prototype.encode;
  vi.spyOn(TextEncoder.prototype, 'encode').mockImplementation(function (this: TextEncoder, input?: string) {
    encodes.calls++;
    return original.call(this, input);
  });
  const bpe = await import('./boundedBpe.ts');
  return { ...bpe, encodes };
}

// The tab tokenizes in a worker started for the load, so this table is built for the first hostile line:
// 50,256 tokens each encoded to bytes made it take seconds there. Only the ~900 non-ASCII ones need it.
it('the first long pre-token builds the vocabulary without encoding its ASCII tokens', async () => {
  const { encodeBounded, encodes } = await freshCounted();
  const ids = encodeBounded('a'.repeat(100_000), 50);
  expect(ids.length).toBeGreaterThan(50);
  // The run's own bytes once, and the 529 non-ASCII token strings of r50k_base (its 344 byte tokens are arrays).
  expect(encodes.calls).toBeLessThanOrEqual(600);
});

it.each([
  ['a 2-byte character', 'é'],
  ['a 3-byte character', '日'],
  ['a 4-byte character (byte tokens)', '🙂'],
  ['mixed', 'é日🙂x'],
])('long runs of %s: the vocabulary built so gives the exact ids', async (_name, ch) => {
  const { encodeBounded } = await freshCounted();
  const text = ch.repeat(Math.ceil(6000 / ch.length));
  expect(encodeBounded(text, 1_000_000)).toEqual(encode(text, { disallowedSpecial: new Set<string>() }));
});
