// A fuzz target with bugs planted on purpose, for test/fuzz-driver.test.ts: the driver must find and
// record each kind of finding (a crash, a slow input, a hang) from its dictionary's words. A hang
// needs its word at the start (rarer), since each one costs the test a watchdog wait and a new worker.
const has = (data: Uint8Array, word: string): boolean => Buffer.from(data).includes(word);

export function fuzz(data: Uint8Array): void {
  if (has(data, 'BUG!')) throw new Error('planted crash');
  if (has(data, 'SLOW')) {
    const until = performance.now() + 150;
    while (performance.now() < until);
  }
  if (Buffer.from(data).subarray(0, 4).toString() === 'HANG') for (;;);
}
