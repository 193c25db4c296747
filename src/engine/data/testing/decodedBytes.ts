/**
 * Test helper: the bytes passed to TextDecoder.decode while `run` runs, the decoding work counted (so a test
 * bounds work, not time). The spy is left in place: the caller's afterEach restores mocks.
 */
import { vi } from 'vitest';

export async function decodedBytes<T>(run: () => Promise<T>): Promise<{ result: T; bytes: number }> {
  const original = TextDecoder.prototype.decode;
  let bytes = 0;
  vi.spyOn(TextDecoder.prototype, 'decode').mockImplementation(function (this: TextDecoder, input?: AllowSharedBufferSource, options?: TextDecodeOptions) {
    bytes += input?.byteLength ?? 0;
    return original.call(this, input, options);
  });
  const result = await run();
  return { result, bytes };
}
