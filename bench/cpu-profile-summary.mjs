// bench/cpu-profile-summary.mjs — where a .cpuprofile's time went: self time by function and by package
// (node_modules/<name>, node: internals, our sources), the TOP (default 25) of each.
// LAST_S=<s>: only the samples of the profile's last seconds (an idle window before the stop, not the start-up).
// Usage: node bench/cpu-profile-summary.mjs FILE.cpuprofile [...]
import { readFileSync } from 'node:fs';

const TOP = Number(process.env.TOP ?? 25);
for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  const from = process.env.LAST_S ? profile.endTime - Number(process.env.LAST_S) * 1e6 : -Infinity;
  let at = profile.startTime;
  // Time the process slept is not work.
  profile.samples.forEach((id, i) => {
    at += deltas[i] ?? 0;
    if (at >= from && byId.get(id).callFrame.functionName !== '(idle)') self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    const where = callFrame.url.replace(/^file:\/\//, '');
    const pkg = where.includes('node_modules/')
      ? where.split('node_modules/').at(-1).split('/').slice(0, where.split('node_modules/').at(-1).startsWith('@') ? 2 : 1).join('/')
      : where.startsWith('node:') ? 'node:' + where.slice(5).split('/')[0] : where === '' ? `(${callFrame.functionName || 'native'})` : where.replace(/.*\/(server|payment-service|packages|simulator)\//, '$1/');
    const fn = `${callFrame.functionName || '(anonymous)'} ${pkg}:${callFrame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  }
  const show = (title, map) => {
    console.log(`  ${title}`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`    ${(us / 1000).toFixed(0).padStart(7)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${name}`);
  };
  console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled`);
  show('by package or file', byPackage);
  show('by function', byFunction);
}
