/**
 * The identity of files read together (issue 48, point 3): what runs and model files record for several
 * files, pinned in python/tests/golden/formats/identities.json, which eorm.data_files.data_identity must give
 * too (python/tests/test_data_files.py). UPDATE_FORMAT_GOLDEN=1 rewrites it from this side.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inProcessPool } from '../../engine/data/tokenize/tokenizePool.ts';
import { loadData } from './dataLoader.ts';

const DIR = new URL('../../../python/tests/golden/formats/', import.meta.url);
const CASES = [
  ['real/zeroeval_gsm_gemma-2-2b-it.json', 'real/zeroeval_gsm_gpt-3.5-turbo-0125.json', 'real/zeroeval_gsm_Qwen2-7B-Instruct.json'],
  ['grouped.jsonl'],
  ['grouped.jsonl', 'picks.jsonl'],
];

describe('the identity of files read together, against the shared golden file', () => {
  it('is the one python/ computes for the same files in the same order', async () => {
    const got = [];
    for (const files of CASES) {
      const source = { kind: 'files' as const, files: files.map((f) => new File([readFileSync(new URL(f, DIR))], f.slice(f.lastIndexOf('/') + 1))) };
      const loaded = await loadData('train', source, inProcessPool(), 42, () => undefined);
      got.push({ files, identity: loaded.contentHash });
    }
    const path = new URL('identities.json', DIR);
    if (process.env.UPDATE_FORMAT_GOLDEN) writeFileSync(path, `${JSON.stringify(got, null, 1)}\n`);
    expect(got).toEqual(JSON.parse(readFileSync(path, 'utf8')));
  });
});
