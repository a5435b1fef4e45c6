#!/usr/bin/env node
// Part of `npm run lint`: refuses import cycles in the source of every workspace (a cycle makes the order modules
// initialise in depend on which one is imported first, and hides what depends on what). Type-only imports are
// erased at build and do not count. Prints each cycle's files and exits 1 when there is one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Folders to check: the arguments (tests), else every workspace's source.
const SOURCE_DIRS = process.argv.length > 2 ? process.argv.slice(2) : ['client/src', 'server/src', 'payment-service/src', 'simulator/src', 'packages/shared/src', 'deploy/src'];
const SOURCE_FILE = /\.tsx?$/;
const TEST_FILE = /\.test\.tsx?$/;

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (SOURCE_FILE.test(entry.name) && !TEST_FILE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(full);
  }
  return files;
}

// `import x from './a.js'`, `export { y } from './b.js'`, `import './c.js'` and `import('./d.js')`; not `import type`.
const STATIC_IMPORT = /(?:^|[;\n])\s*(?:import|export)\s+(?!type[\s{])(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const stem = base.replace(/\.(?:js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined; // a stylesheet, JSON, or something outside the source
}

const graph = new Map();
for (const dir of SOURCE_DIRS) {
  const absolute = path.resolve(root, dir);
  if (!existsSync(absolute)) continue;
  for (const file of sourceFiles(absolute)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set();
    for (const pattern of [STATIC_IMPORT, DYNAMIC_IMPORT]) {
      for (const match of text.matchAll(pattern)) {
        const target = resolve(file, match[1]);
        if (target) targets.add(target);
      }
    }
    graph.set(file, [...targets]);
  }
}

// Tarjan's strongly connected components: every component of more than one file (or a file importing itself) is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
let counter = 0;
function visit(file) {
  index.set(file, counter);
  low.set(file, counter);
  counter += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file), low.get(next)));
    } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component);
}
for (const file of graph.keys()) if (!index.has(file)) visit(file);

if (cycles.length === 0) {
  console.log(`[import-cycles] none in ${graph.size} source files`);
} else {
  for (const cycle of cycles) {
    console.log(`[import-cycles] ${cycle.length} files import each other in a circle:`);
    for (const file of cycle.sort()) console.log(`  ${path.relative(root, file)}`);
  }
  process.exit(1);
}
