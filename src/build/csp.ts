/**
 * Content-Security-Policy of the built app, as a Vite plugin: a <meta> tag in the built index.html (so
 * any host protects the page) and a header from `vite preview` (a header also covers the workers, which
 * a meta tag does not reach). The dev server gets neither: React refresh injects inline scripts there.
 */
import type { Plugin } from 'vite';

const DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'none'"],
  // 'wasm-unsafe-eval': WebAssembly compilation (tfjs-backend-wasm). blob:: its threaded build starts
  // workers from blob: URLs that importScripts another blob: (only same-origin script can mint those).
  'script-src': ["'self'", "'wasm-unsafe-eval'", 'blob:'],
  'worker-src': ["'self'", 'blob:'],
  // The engine worker fetches the .wasm files and the built-in sample from the same origin.
  'connect-src': ["'self'"],
  // Style attributes are set through the CSSOM (React, uPlot), which style-src does not govern.
  'style-src': ["'self'"],
  // The favicon is a data: URL; the app shows no other image.
  'img-src': ['data:'],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  // Header only: browsers ignore frame-ancestors in a meta tag (with a console error).
  'frame-ancestors': ["'none'"],
};

const HEADER_ONLY = new Set(['frame-ancestors']);

function policy(skip: Set<string>): string {
  return Object.entries(DIRECTIVES)
    .filter(([name]) => !skip.has(name))
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** What a host must send as the Content-Security-Policy header (the README's "Hosting the built app"). */
export const CSP_HEADER = policy(new Set());
export const CSP_META = policy(HEADER_ONLY);

export function contentSecurityPolicy(): Plugin {
  return {
    name: 'eorm-csp',
    apply: (_config, env) => env.command === 'build' || env.isPreview === true,
    transformIndexHtml: {
      order: 'pre',
      handler: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' }],
    },
    configurePreviewServer(server) {
      server.middlewares.use((_req, res, next) => {
        res.setHeader('Content-Security-Policy', CSP_HEADER);
        next();
      });
    },
  };
}
