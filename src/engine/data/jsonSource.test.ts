import { describe, expect, it } from 'vitest';
import { createRng } from '../shared/rng.ts';
import { exactZeroOrOne, topLevelSources } from './jsonSource.ts';
import { growth, LINEAR_LIMIT } from './testing/scaling.ts';

describe('topLevelSources', () => {
  it('gives the source text of each top-level value, numbers exactly as written', () => {
    const text = ' { "id" : 12345678901234567890 ,"label":1.0,"s":"a\\"b,}","o":{"x":[1,{"y":"]"}]},"t":true,"n":null,"e":1e400}\t';
    expect([...topLevelSources(text)]).toEqual([
      ['id', '12345678901234567890'],
      ['label', '1.0'],
      ['s', '"a\\"b,}"'],
      ['o', '{"x":[1,{"y":"]"}]}'],
      ['t', 'true'],
      ['n', 'null'],
      ['e', '1e400'],
    ]);
  });

  it('decodes escaped keys, keeps the last duplicate (as JSON.parse does) and ignores nested keys', () => {
    const m = topLevelSources('{"la\\u0062el": 0.5, "x": {"label": 7}, "label": 2, "k\\\\": "v\\\\"}');
    expect(m.get('label')).toBe('2');
    expect(m.get('k\\')).toBe('"v\\\\"');
    expect(topLevelSources('{}').size).toBe(0);
  });

  it('agrees with JSON.parse on every value of random objects', () => {
    const rng = createRng(11);
    const values = [() => rng.next() * 1e6 - 5e5, () => 'q"\\\n}{][,'.slice(rng.int(9)), () => [rng.int(3), { a: 'x]' }], () => null, () => ({ '"k': [[]] })];
    for (let t = 0; t < 300; t++) {
      const obj: Record<string, unknown> = {};
      for (let k = 0; k < rng.int(6); k++) obj[`k${rng.int(4)}\\"`] = values[rng.int(values.length)]();
      const text = JSON.stringify(obj, null, rng.int(2) ? 1 : undefined);
      const sources = topLevelSources(text);
      expect(Object.fromEntries([...sources].map(([k, v]) => [k, JSON.parse(v) as unknown]))).toEqual(obj);
    }
  });

  it('runs in linear time on deep nesting and on long runs of backslashes', () => {
    const deep = growth((n) => `{"a": ${'['.repeat(n)}${']'.repeat(n)}, "b": 1}`, topLevelSources, 20_000);
    expect(deep.ratio, `${deep.small.toFixed(3)} ms → ${deep.large.toFixed(3)} ms`).toBeLessThan(LINEAR_LIMIT);
    const slashes = growth((n) => `{"a": "${'\\\\\\"'.repeat(n)}", "b": 1}`, topLevelSources, 20_000);
    expect(slashes.ratio, `${slashes.small.toFixed(3)} ms → ${slashes.large.toFixed(3)} ms`).toBeLessThan(LINEAR_LIMIT);
  });
});

describe('exactZeroOrOne', () => {
  it('reads 0 and 1 in any exact spelling', () => {
    for (const s of ['0', '-0', '0.0', '0e5', '0.000E-3']) expect(exactZeroOrOne(s), s).toBe(0);
    for (const s of ['1', '1.0', '1.000', '1e0', '10e-1', '0.1E1', '100e-2', '0.001e+3']) expect(exactZeroOrOne(s), s).toBe(1);
  });

  it('refuses values that only round to 0 or 1', () => {
    for (const s of ['1e-400', '0.99999999999999999', '1.00000000000000001', '-1', '2', '0.5', '1e400', '11e-1', '1e1'])
      expect(exactZeroOrOne(s), s).toBeNull();
  });

  it('runs in linear time on a long run of zeros', () => {
    const g = growth((n) => `1${'0'.repeat(n)}1e-${n + 1}`, exactZeroOrOne, 20_000);
    expect(g.ratio, `${g.small.toFixed(3)} ms → ${g.large.toFixed(3)} ms`).toBeLessThan(LINEAR_LIMIT);
  });
});
