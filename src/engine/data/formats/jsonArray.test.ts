/**
 * The byte-level array splitter (issue 48, point 6): the same elements, lines and errors whatever the chunks
 * the bytes come in, and a compact one-line array over the limit read element by element.
 */
import { describe, expect, it } from 'vitest';
import type { LineError } from '../types.ts';
import { ArraySplitter } from './jsonArray.ts';

const enc = new TextEncoder();

function split(text: string, chunk: number, max = 1 << 20) {
  const out: Array<[string, number] | LineError> = [];
  const s = new ArraySplitter({ element: (t, line) => out.push([t, line]), error: (e) => out.push(e) }, max);
  const bytes = enc.encode(text);
  for (let at = 0; at < bytes.length; at += chunk) s.chunk(bytes.slice(at, at + chunk));
  s.end();
  return out;
}

const ARRAY = '\uFEFF[{"q": "a ] } \\" [", "r": ["é"]},\r\n  7, "x,y",\n  [1, [2]] ] tail\nmore\n\n';

describe('ArraySplitter', () => {
  it('gives the same elements, lines and errors for every chunk size', () => {
    const whole = split(ARRAY, ARRAY.length * 4);
    expect(whole).toEqual([
      ['{"q": "a ] } \\" [", "r": ["é"]}', 1],
      ['7', 2],
      ['"x,y"', 2],
      ['[1, [2]]', 3],
      { line: 3, field: '(line)', kind: 'invalid_json', reason: 'text after the end of the JSON array (one file holds one array)' },
      { line: 4, field: '(line)', kind: 'invalid_json', reason: 'text after the end of the JSON array (one file holds one array)' },
    ]);
    for (const chunk of [1, 2, 3, 7, 16]) expect(split(ARRAY, chunk)).toEqual(whole);
  });

  it('reads a one-line array longer than the limit element by element, skipping only the element over it', () => {
    const items = Array.from({ length: 40 }, (_, i) => JSON.stringify({ question: `q${i}`, responses: [i === 9 ? 'x'.repeat(300) : `r${i}`] }));
    const out = split(`[${items.join(', ')}]`, 64, 200);
    expect(out.length).toBe(40);
    expect(out.filter((e) => Array.isArray(e)).map((e) => (e as [string, number])[0])).toEqual(items.filter((_, i) => i !== 9));
    expect(out[9]).toMatchObject({
      line: 1,
      kind: 'line_too_long',
      reason: expect.stringMatching(new RegExp(`^array element too long: ${items[9].length} bytes \\(limit 200\\)`)),
    });
  });

  it('says an array cut short is not closed, on its last line', () => {
    expect(split('[1,\n{"a": [2\n', 5)).toEqual([
      ['1', 1],
      { line: 2, field: '(line)', kind: 'invalid_json', reason: 'the JSON array is not closed: the file ends inside it (was it cut short?)' },
    ]);
  });
});
