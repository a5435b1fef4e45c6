import { it } from 'vitest';
import { startTestServer } from './helpers/test-server.js';

it('measures', async () => {
  const c0 = process.cpuUsage();
  const t = await startTestServer();
  const c1 = process.cpuUsage(c0);
  const u0 = process.cpuUsage();
  const users = [];
  for (let i = 0; i < 5; i++) users.push(await t.createUser(`user${i}`));
  const u1 = process.cpuUsage(u0);
  await t.api('GET', '/api/health');
  const r0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < 300; i++) await t.api('GET', '/api/health');
  const r1 = process.cpuUsage(r0);
  const w1 = performance.now();
  const p0 = process.cpuUsage();
  for (let i = 0; i < 300; i++) await t.api('GET', `/api/auth/user/${users[0]!.user._id}`, { token: users[0]!.token });
  const p1 = process.cpuUsage(p0);
  const ms = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000).toFixed(0);
  console.log(`START cpu ${ms(c1)} ms; 5 users ${ms(u1)} ms; 300 health ${ms(r1)} ms (${(w1 - w0).toFixed(0)} ms wall); 300 me ${ms(p1)} ms`);
  await t.close();
}, 120_000);
