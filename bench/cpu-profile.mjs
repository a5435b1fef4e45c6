// bench/cpu-profile.mjs — a CPU profile of a whole process, written when it exits (NODE_OPTIONS may not carry
// --cpu-prof). bench/flash-sale.mjs passes it to the instances it starts with CPU_PROFILE_DIR=<dir>:
//   NODE_OPTIONS="--import ./bench/cpu-profile.mjs" CPU_PROFILE_DIR=/tmp/prof node server/dist/index.js
// One <dir>/<pid>-<argv1's name>.cpuprofile per process; open it in Chrome's DevTools or summarise it with
// `node bench/cpu-profile-summary.mjs <file>`.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: Number(process.env.CPU_PROFILE_INTERVAL_US ?? 1000) });
  session.post('Profiler.start');
  // The in-process session answers synchronously, so the profile is written before the process is gone.
  process.once('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(path.join(dir, `${process.pid}-${path.basename(process.argv[1] ?? 'node').replace(/\W+/g, '_')}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
