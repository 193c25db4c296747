#!/usr/bin/env node
// Asks Dawn (the kit's WebGPU for Node) for an adapter and prints what it got, in a second, so run.sh can
// try the machine's Vulkan drivers one by one before the bench starts: `node adapter.mjs DAWN_DIR`.
// Exit 0: a hardware adapter; 3: only a software one (SwiftShader, llvmpipe); 1: none.
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dawn = await import(pathToFileURL(join(resolve(process.argv[2] ?? '.'), 'index.js')).href);
const adapter = await dawn.create([]).requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  console.log('no adapter');
  process.exit(1);
}
const i = adapter.info ?? {};
const software = adapter.isFallbackAdapter || /swiftshader|llvmpipe|lavapipe|software/i.test(`${i.vendor} ${i.architecture} ${i.description}`);
console.log(`${[i.vendor, i.architecture, i.description].filter(Boolean).join(' · ') || 'an adapter'}${software ? ' (software)' : ''}`);
process.exit(software ? 3 : 0);
