/**
 * Lets the event loop run a task: incoming messages (pause, stop) and storage commits wait for one,
 * and on the CPU-memory backends a step's awaits resolve as microtasks, which never give it a turn.
 * A message channel, not setTimeout, whose nested calls browsers clamp to 4 ms.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
