/**
 * Where a service's CPU went: the top frames of a V8 CPU profile (`--cpu-prof`), by self time,
 * per package and per function, over a window of the profile (seconds from its start; the
 * per-second busy line it prints first shows where the load was).
 *
 *   STANDALONE_NODE_ARGS="--cpu-prof --cpu-prof-dir=tmp/prof" npm run bench -- --phases load --data tmp/bench
 *   node -r @swc-node/register bench/profile-top.ts tmp/prof/CPU.<...>.cpuprofile [--from S] [--to S] [--top N]
 */
import { readFileSync } from 'node:fs';
import { option } from './harness';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `pkg` for node_modules/pkg, `apps/x/src` for the project's files, `node` for Node's own, else the frame's name (GC, idle). */
function packageOf(url: string, name: string): string {
  const dependency = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1];
  if (url.startsWith('node:')) return 'node';
  if (url.startsWith('file://')) return url.replace(/^file:\/\/.*?\/((apps|libs|bench|e2e)\/[^/]+\/[^/]+)\/.*$/, '$1');
  return url || name;
}

function main(): void {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) throw new Error('usage: profile-top.ts FILE.cpuprofile [--from S] [--to S] [--top N]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const from = Number(option('from', '0')) * 1e6;
  const to = Number(option('to', '1e9')) * 1e6;
  const top = Number(option('top', '15'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const busyPerSecond: number[] = [];
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    // A sample stands for the time until the next one.
    const spent = profile.timeDeltas[i + 1] ?? 0;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    const second = Math.floor(at / 1e6);
    busyPerSecond[second] = (busyPerSecond[second] ?? 0) + spent;
    if (at < from || at > to) return;
    busy += spent;
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + spent);
    const where = url
      ? ` ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|libs|bench|e2e)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + spent);
  });
  const line = (value: number, name: string) => `${((100 * value) / busy).toFixed(1).padStart(5)} %  ${name}\n`;
  const topOf = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, value]) => line(value, name))
      .join('');
  process.stdout.write(`busy ms in each second: ${Array.from(busyPerSecond, (v) => Math.round((v ?? 0) / 1000)).join(' ')}\n`);
  process.stdout.write(
    `\nwindow: ${(busy / 1000).toFixed(0)} ms busy\n\nself time by package\n${topOf(byPackage)}\nself time by function\n${topOf(byFunction)}`,
  );
}

main();
