import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { CompiledMessage, Messages } from './messages.js';

/*
 * Compiles a translation catalog (flat JSON, key → ICU MessageFormat) with Lingui's compiler into what
 * ./messages.ts renders. Used by the client's build (client/build/catalogs-plugin.ts) and by the API server when
 * it loads its mail and SMS catalogs. Refuses what the renderer does not support, naming the file and key.
 */
type Compiled = ReturnType<typeof compileMessageOrThrow>;

function checkSupported(compiled: Compiled): void {
  if (typeof compiled === 'string') return;
  for (const piece of compiled) {
    if (typeof piece === 'string' || piece.length === 1) continue;
    const [name, kind, cases] = piece as [string, string, Record<string, Compiled> | undefined];
    const offset = cases?.offset as unknown;
    if ((kind !== 'plural' && kind !== 'select') || !cases || (offset !== undefined && offset !== 0)) {
      throw new Error(`{${name}, ${kind}${offset ? ', offset' : ''}} is not supported (placeholders, plural and select only)`);
    }
    for (const [option, value] of Object.entries(cases)) if (option !== 'offset') checkSupported(value);
  }
}

export function compileCatalog(messages: Record<string, unknown>, file: string): Messages {
  return Object.fromEntries(
    Object.entries(messages).map(([key, message]): [string, CompiledMessage] => {
      if (typeof message !== 'string') throw new Error(`${file}: "${key}" is not a string`);
      try {
        const compiled = compileMessageOrThrow(message);
        checkSupported(compiled);
        // A text without placeholders is kept as a plain string (fewer bytes).
        return [key, (typeof compiled === 'string' || compiled.some((piece) => typeof piece !== 'string') ? compiled : compiled.join('')) as CompiledMessage];
      } catch (error) {
        throw new Error(`${file}: "${key}" is not valid ICU MessageFormat: ${(error as Error).message}`, { cause: error });
      }
    }),
  );
}
