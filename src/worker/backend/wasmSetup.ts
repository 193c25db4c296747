import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmPlain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';

let configured = false;

/**
 * The .wasm files Vite serves, for the engine worker and the scoring peers alike. `threads` is asked
 * for only where the page is cross-origin isolated (SharedArrayBuffer); elsewhere one.
 */
export function configureWasm(threads: number): void {
  if (configured) return;
  configured = true;
  setWasmPaths({ 'tfjs-backend-wasm.wasm': wasmPlain, 'tfjs-backend-wasm-simd.wasm': wasmSimd, 'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimd });
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  setThreadsCount(isolated ? Math.max(1, threads) : 1);
}
