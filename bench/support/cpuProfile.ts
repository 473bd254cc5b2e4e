// CPU profiles for benches that say where a path spends its time: V8's sampling profiler
// in this process (node:inspector) or in a Chromium page (CDP), written to a
// `.cpuprofile` file (open it in Chrome DevTools) and summarized as the top functions by
// self time. Only when a bench is asked to profile: sampling slows what it measures.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

export interface Profiler {
  stop(): Promise<CpuProfile>;
}

const INTERVAL_US = 100;

/** Samples this Node process until `stop()`. */
export async function profileNode(): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: INTERVAL_US });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile as CpuProfile;
    },
  };
}

/** Samples a page's main thread (through its CDP session) until `stop()`. */
export async function profilePage(cdp: CDPSession): Promise<Profiler> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: INTERVAL_US });
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const { profile } = await cdp.send('Profiler.stop');
      return profile as CpuProfile;
    },
  };
}

/** Where a function is: its file's last two path parts and line, so rows stay short. */
function place(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return '';
  const file = frame.url
    .replace(/[?#].*$/, '')
    .split('/')
    .slice(-2)
    .join('/');
  return `${file}:${frame.lineNumber + 1}`;
}

/** The `top` functions by self time, as a share of all samples (idle and program included). */
export function topSelf(profile: CpuProfile, top = 15): { name: string; where: string; share: string; ms: string }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next sample.
  for (let i = 0; i < samples.length; i++) selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + (deltas[i + 1] ?? 0));
  const total = profile.endTime - profile.startTime;
  const byFunction = new Map<string, { name: string; where: string; us: number }>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const name = frame.functionName || '(anonymous)';
    const where = place(frame);
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({
      name: e.name,
      where: e.where,
      share: `${((100 * e.us) / total).toFixed(1)}%`,
      ms: (e.us / 1000).toFixed(1),
    }));
}

/** Writes the profile to `dir/name.cpuprofile` and prints its top functions. */
export function report(dir: string, name: string, profile: CpuProfile): void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.cpuprofile`);
  fs.writeFileSync(file, JSON.stringify(profile));
  console.log(`\n  ${name}: ${file}`);
  for (const row of topSelf(profile))
    console.log(`    ${row.share.padStart(6)}  ${row.ms.padStart(8)} ms  ${row.name}  ${row.where}`);
}
