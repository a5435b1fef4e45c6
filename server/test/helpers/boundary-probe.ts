import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/**
 * Lints a line of code as if it sat at a given path, with the repository's own eslint.config.js, and
 * returns only the import-boundary messages. The server's and the client's boundary tests use it to
 * prove the rules refuse a wrong import and accept a right one.
 */
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const BOUNDARY_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax', '@typescript-eslint/no-restricted-imports']);

/** Whether an ESLint message comes from one of the boundary rules. */
export const isBoundaryRule = (ruleId: string | null) => ruleId !== null && BOUNDARY_RULES.has(ruleId);

export function createBoundaryProbe() {
  const eslint = new ESLint({ cwd: repoRoot, overrideConfigFile: 'eslint.config.js' });
  return {
    eslint,
    repoRoot,
    /** The boundary rules' messages for `code` linted as if it were the file at `filePath` (relative to the repository). */
    async boundaryErrors(filePath: string, code: string) {
      const [result] = await eslint.lintText(`${code}\nexport const used = value;\n`, { filePath });
      return result!.messages.filter((message) => isBoundaryRule(message.ruleId));
    },
  };
}
