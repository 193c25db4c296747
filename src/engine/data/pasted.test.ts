import { describe, expect, it } from 'vitest';
import { parsePastedCandidates } from './pasted.ts';

describe('parsePastedCandidates', () => {
  it('splits plain texts on lines that are only ---, keeping inner newlines and dropping empty parts', () => {
    const r = parsePastedCandidates('First answer\nline two\n---\n  Second: 18\r\n ---  \n\n---\nThird');
    expect(r).toEqual({ ok: true, format: 'separated', texts: ['First answer\nline two', 'Second: 18', 'Third'] });
  });

  it('keeps --- inside a line as text', () => {
    const r = parsePastedCandidates('a --- b\n---\nc');
    expect(r).toEqual({ ok: true, format: 'separated', texts: ['a --- b', 'c'] });
  });

  it('reads JSONL lines with gen_text or generated_full_text', () => {
    const r = parsePastedCandidates('{"gen_text": "x = 1"}\n\n{"generated_full_text": "y", "label": 0}');
    expect(r).toEqual({ ok: true, format: 'jsonl', texts: ['x = 1', 'y'] });
  });

  it('says which pasted line is wrong in JSONL mode', () => {
    const r = parsePastedCandidates('{"gen_text": "ok"}\n{"text": "no"}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/line 2, field "gen_text"/);
    const bad = parsePastedCandidates('{"gen_text": "ok"}\n{oops');
    if (!bad.ok) expect(bad.message).toMatch(/line 2: not valid JSON/);
    expect(bad.ok).toBe(false);
  });

  it('refuses empty input with a hint', () => {
    const r = parsePastedCandidates('  \n---\n ');
    expect(r.ok).toBe(false);
  });
});
