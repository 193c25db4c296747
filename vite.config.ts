/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy } from './src/build/csp.ts';

// Cross-origin isolation (SharedArrayBuffer) lets the WASM backend run its threaded build.
// Any server hosting the built app must send the same two headers (see the README).
const ISOLATION_HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  worker: {
    format: 'es',
    // Whitespace only: tfjs-backend-wasm starts its thread workers from its factory's toString(), which
    // mangling or compression break (free names of the bundle's scope: "e is not defined" in the build).
    rolldownOptions: { output: { minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } } } },
  },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  // Pre-bundle heavy deps up front so the dev server never reloads mid-session.
  optimizeDeps: {
    include: [
      '@tensorflow/tfjs',
      '@tensorflow/tfjs-backend-webgpu',
      '@tensorflow/tfjs-backend-wasm',
      'gpt-tokenizer/encoding/r50k_base',
      'gpt-tokenizer/bpeRanks/r50k_base',
      'react',
      'react-dom/client',
      'zustand',
      'uplot',
    ],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on 2 cores, leaving the other idle.
    maxWorkers: availableParallelism(),
  },
});
