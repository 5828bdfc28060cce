/**
 * The bench's log: each line says how far into the run it was written (minutes:seconds), so that
 * a run's log tells where its time went. A child process given the run's start (seed-data-set.ts)
 * writes its lines with the same clock.
 */
export function benchLog(startedAt: number, prefix = ""): (message: string) => void {
  return (message) => {
    const seconds = Math.floor((Date.now() - startedAt) / 1000);
    console.log(`[bench ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}] ${prefix}${message}`);
  };
}
