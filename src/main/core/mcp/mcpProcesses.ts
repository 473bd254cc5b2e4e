// The process ids of every local server started, so none outlives Stepwise, not even on an
// abrupt exit that skips the orderly stop.
export function createProcessGuard() {
  const pids = new Set<number>();
  const killAll = () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  process.on('exit', killAll);
  return {
    pids,
    /** Kills whatever is left and stops watching for the exit. */
    dispose() {
      killAll();
      process.off('exit', killAll);
    },
  };
}
