/**
 * Several real per-model results files (ZeroEval's result_dirs/gsm/<model>.json, excerpts in
 * python/tests/golden/formats/real) dropped together give the groups a join written out by hand gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerStats, disagreementsJsonl } from '../answers/answerStats.ts';
import type { Dataset } from '../types.ts';
import { readFiles } from './readFiles.ts';

const DIR = new URL('../../../../python/tests/golden/formats/real/', import.meta.url);
const MODELS = ['gemma-2-2b-it', 'gpt-3.5-turbo-0125', 'Qwen2-7B-Instruct'];

interface Item {
  id: string;
  question: string;
  output: string[];
  generator: string;
  answer: string;
}

function file(model: string) {
  const name = `zeroeval_gsm_${model}.json`;
  return { name, text: readFileSync(new URL(name, DIR), 'utf8') };
}

describe('per-model results files joined', () => {
  it('gives the hand-written join: one group per id, one candidate per model, in the order the files were given', async () => {
    const files = MODELS.map(file);
    const byId = new Map<string, { question: string; texts: string[]; sources: string[] }>();
    for (const f of files) {
      for (const item of JSON.parse(f.text) as Item[]) {
        const g = byId.get(item.id) ?? { question: item.question, texts: [], sources: [] };
        byId.set(item.id, g);
        for (const o of item.output) {
          g.texts.push(o);
          g.sources.push(item.generator);
        }
      }
    }
    const d = (await readFiles(files.map((f) => ({ name: f.name, stream: new Blob([f.text]).stream(), size: f.text.length })))) as Dataset;
    expect(d.format).toBe('multi-file');
    expect(d.labelsFrom).toBe('gold');
    expect(d.groups.map((g) => g.questionId)).toEqual([...byId.keys()]);
    for (const g of d.groups) {
      const want = byId.get(g.questionId!)!;
      expect(g.question).toBe(want.question);
      expect(g.candidates.map((c) => c.genText)).toEqual(want.texts);
      expect(g.candidates.map((c) => c.source)).toEqual(want.sources);
    }
    // GSM8K's gold written "# 18" is the answer 18, which all three models give for the first question.
    expect(d.groups[0].candidates.map((c) => [c.gold, c.label])).toEqual([
      ['18', 1],
      ['18', 1],
      ['18', 1],
    ]);
  });

  it('names a file that holds the same question id with another question', async () => {
    const a = JSON.stringify([{ id: 'x', question: 'Q one', output: ['The answer is 1.'], answer: '1' }]);
    const b = JSON.stringify([{ id: 'x', question: 'Q two', output: ['The answer is 2.'], answer: '2' }]);
    const d = await readFiles([
      { name: 'a.json', stream: new Blob([a]).stream(), size: a.length },
      { name: 'b.json', stream: new Blob([b]).stream(), size: b.length },
    ]);
    expect(d.report.errors).toEqual([expect.objectContaining({ file: 'b.json', line: 1, kind: 'conflicting_question' })]);
    expect(d.report.errors[0].reason).toContain('a.json line 1');
  });

  it('names the file of a line whose label disagrees with its gold answer', async () => {
    const a = `${JSON.stringify({ id: 'x', question: 'Q', responses: ['The answer is 1.'], labels: [1], answer: '1' })}\n`;
    const b = `${JSON.stringify({ id: 'x', question: 'Q', responses: ['The answer is 2.'], labels: [1], answer: '1' })}\n`;
    const d = (await readFiles([
      { name: 'a.jsonl', stream: new Blob([a]).stream(), size: a.length },
      { name: 'b.jsonl', stream: new Blob([b]).stream(), size: b.length },
    ])) as Dataset;
    const stats = answerStats(d);
    expect(stats.labelGoldDisagreements).toBe(1);
    expect(disagreementsJsonl(stats.disagreements)).toBe(
      `${JSON.stringify({ file: 'b.jsonl', line: 1, question_id: 'x', label: 1, answer_key: '2', gold: '1' })}\n`,
    );
  });
});
