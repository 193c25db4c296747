/**
 * The nesting rule, app side: a JSONL line is read at any nesting depth (JSON.parse and topLevelSources
 * never recurse), so a field the rules ignore does not reject its line however deep it is, and a deep value
 * where a string or label is expected is rejected as any array or object is. python/eorm/formats/record.py follows
 * the same rule (eorm.jsonparse); python/tests/test_app_rules.py checks it against the golden file.
 */
import { describe, expect, it } from 'vitest';
import { topLevelSources } from './jsonSource.ts';
import { parseCandidateLine } from './record.ts';
import { bytesStream, readDataset } from './testing/node.ts';

const DEPTH = 100_000;
const deepArray = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const deepObject = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

describe('JSONL lines nested 100,000 levels deep', () => {
  it('an ignored field at any depth leaves the line valid', () => {
    for (const value of [deepArray, deepObject]) {
      const r = parseCandidateLine(`{"question":"Q","x":${value},"gen_text":"A","label":1,"question_id":12345678901234567890}`, 3);
      expect(r).toEqual({
        ok: true,
        record: { question: 'Q', genText: 'A', label: 1, questionId: '12345678901234567890', answer: null, gold: null, source: null },
      });
    }
  });

  it('a deep value where a string or label is expected is rejected like any array or object', () => {
    expect(parseCandidateLine(`{"question":${deepArray},"gen_text":"A","label":1}`, 1)).toEqual({
      ok: false,
      error: { line: 1, field: 'question', kind: 'wrong_type', reason: 'expected a string, got an array' },
    });
    expect(parseCandidateLine(`{"question":"Q","gen_text":"A","label":${deepObject}}`, 2)).toMatchObject({
      ok: false,
      error: { field: 'label', kind: 'bad_label' },
    });
    expect(parseCandidateLine(deepArray, 4)).toMatchObject({ ok: false, error: { kind: 'not_object' } });
    expect(parseCandidateLine(`{"question":"Q","gen_text":"A","label":1,"x":${deepArray.slice(1)}}`, 5)).toMatchObject({
      ok: false,
      error: { kind: 'invalid_json' },
    });
  });

  it('topLevelSources skips a deep value without recursion', () => {
    const text = `{"x":${deepArray},"label":1.0,"y":${deepObject}}`;
    const s = topLevelSources(text);
    expect(s.get('label')).toBe('1.0');
    expect(s.get('x')!.length).toBe(2 * DEPTH);
    expect(s.get('y')!.length).toBe(deepObject.length);
  });

  it('ingest groups deep lines with the others', async () => {
    const lines = [
      '{"question":"Q1","gen_text":"a","label":1}',
      `{"question":"Q1","gen_text":"b","label":0,"x":${deepArray}}`,
      `{"question":"Q2","gen_text":"c","label":1,"meta":${deepObject}}`,
    ];
    const ds = await readDataset(bytesStream(`${lines.join('\n')}\n`));
    expect(ds.groups.map((g) => [g.question, g.candidates.map((c) => c.genText)])).toEqual([
      ['Q1', ['a', 'b']],
      ['Q2', ['c']],
    ]);
    expect(ds.report.rejected).toBe(0);
  });
});
