import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** `npm run lint` ends with scripts/check-import-cycles.mjs: files importing each other in a circle fail it. */
const script = path.resolve(import.meta.dirname, '../../scripts/check-import-cycles.mjs');
const run = (dir: string) =>
  promisify(execFile)(process.execPath, [script, dir]).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );

const dirs: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tukio-cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the import-cycle check', () => {
  it('refuses files that import each other in a circle, through an index or a lazy import, and names them', async () => {
    const dir = tree({
      'lib/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'lib/b.ts': "export { c as b } from './more';\n",
      'lib/more/index.ts': "export const c = () => import('../a.js');\n",
      'lib/apart.ts': "import { a } from './a.js';\nexport const apart = a;\n",
    });
    const answer = await run(dir);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('3 files import each other in a circle');
    for (const file of ['lib/a.ts', 'lib/b.ts', 'lib/more/index.ts']) expect(answer.stdout).toContain(file);
    expect(answer.stdout).not.toContain('lib/apart.ts');
  });

  it('lets type-only imports and one-way imports pass', async () => {
    const dir = tree({
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': "import { helper } from './c';\nimport type { A } from './a';\nexport interface B { a?: A; n: ReturnType<typeof helper> }\n",
      'c.tsx': 'export const helper = () => 1;\n',
    });
    expect(await run(dir)).toMatchObject({ code: 0 });
  });

  it('finds no cycle in the sources of this repository', async () => {
    const answer = await promisify(execFile)(process.execPath, [script]);
    expect(answer.stdout).toMatch(/none in \d+ source files/);
  });
});
