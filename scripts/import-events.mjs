#!/usr/bin/env node
// `npm run import:events -- <file.json | file.ics | URL>`: the same .env and DATA_DIR as `npm start`,
// then the server's importer (built JS when it is up to date, else the TypeScript source through tsx).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildTargets, loadDotEnv, needsBuild, root, run, sourceFlags } from './lib.mjs';

loadDotEnv();
process.env.DATA_DIR = path.resolve(root, process.env.DATA_DIR ?? 'data');

const args = process.argv.slice(2).map((arg) => (arg.startsWith('-') || /^https?:\/\//i.test(arg) ? arg : path.resolve(process.env.INIT_CWD ?? process.cwd(), arg)));
const built = path.join(root, 'server/dist/scripts/import-events.js');
const shared = buildTargets.find(([workspace]) => workspace === 'packages/shared');
const command = existsSync(built) && !needsBuild('server', 'dist/scripts/import-events.js', ['src', 'drizzle']) && !needsBuild(...shared)
  ? [built]
  : [...sourceFlags, path.join(root, 'server/src/scripts/import-events.ts')];
process.exit(await run(process.execPath, [...command, ...args], { cwd: path.join(root, 'server') }));
