// Test-only fault injection. The crash tests (tests/integration/crash.faults.test.ts)
// start the host with STEPWISE_FAULT_POINT=<name> (or <name>#<n>: the n-th time); when
// the process reaches that named point it kills itself with SIGKILL, exactly as `kill -9`
// at that moment would. Without the variable (every real run) a point does nothing.
const [target, nth] = (process.env.STEPWISE_FAULT_POINT ?? '').split('#');
let hits = 0;

export function faultPoint(name: string): void {
  if (!target || target !== name) return;
  if (++hits >= Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
}
