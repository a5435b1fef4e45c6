/**
 * The server's module boundaries (docs/decisions/server-boundaries.md) are enforced by the root
 * eslint.config.js: a module imports its own files, src/lib, src/db and the public face (index.ts) of a
 * module below it in the layering; the rest of src reaches modules only through their faces; lib/ and db/
 * name at most the auth face's types. Tables: a module imports its own from its schema file, reads another's
 * only from that module's face, never imports another's repository or schema file; faces export no repository. This runs ESLint's Node API on deliberately wrong imports (each
 * must be refused) and on right ones (each must pass), then on the real server sources. No database needed.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBoundaryProbe, isBoundaryRule } from './helpers/boundary-probe.js';

const modulesDir = new URL('../src/modules/', import.meta.url);

const { eslint, boundaryErrors } = createBoundaryProbe();

const refused = [
  {
    why: "a module importing a lower module's internals (tickets → events repository)",
    file: 'server/src/modules/tickets/boundary-probe.ts',
    code: "import { recordActivity as value } from '../events/events.repository.js';",
    rule: 'no-restricted-imports',
    says: "must not use another module's repository",
  },
  {
    why: "an upward import of a higher module's face (events → checkout)",
    file: 'server/src/modules/events/boundary-probe.ts',
    code: "import { createPaymentsRepository as value } from '../checkout/index.js';",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: "an upward import of a higher module's repository (events → checkout, the old cycle)",
    file: 'server/src/modules/events/boundary-probe.ts',
    code: "import { createPaymentsRepository as value } from '../checkout/payments.repository.js';",
    rule: 'no-restricted-imports',
    says: "must not use another module's repository",
  },
  {
    why: 'a type-only upward import (tickets → checkout)',
    file: 'server/src/modules/tickets/boundary-probe.ts',
    code: "import type { PaymentsService } from '../checkout/payments.service.js';\nconst value: PaymentsService | null = null;",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: 'a module importing one in its own layer (geocoding → contact)',
    file: 'server/src/modules/geocoding/boundary-probe.ts',
    code: "import { contactBody as value } from '../contact/index.js';",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: 'chat importing auth, which sits above it',
    file: 'server/src/modules/chat/boundary-probe.ts',
    code: "import type { AuthUser } from '../auth/index.js';\nconst value: AuthUser | null = null;",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: "a re-export of a lower module's internals (community → events)",
    file: 'server/src/modules/community/boundary-probe.ts',
    code: "export { canSeeEvent } from '../events/event-visibility.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'only through its public face',
  },
  {
    why: 'an upward import spelled through ../modules/ (tickets → checkout)',
    file: 'server/src/modules/tickets/boundary-probe.ts',
    code: "import { createPaymentsService as value } from '../../modules/checkout/index.js';",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: 'a lazy import() of a higher module (tickets → checkout)',
    file: 'server/src/modules/tickets/boundary-probe.ts',
    code: "const value = () => import('../checkout/payments.service.js');",
    rule: 'no-restricted-syntax',
    says: 'not below it in the layering',
  },
  {
    why: "a repository importing another module's schema file (community → tickets' tables)",
    file: 'server/src/modules/community/boundary-probe.repository.ts',
    code: "import { tickets as value } from '../tickets/tickets.schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: "chat's repository reading auth's users table (chat sits below auth: its ChatPeople port gives it names and avatars)",
    file: 'server/src/modules/chat/chat.repository.ts',
    code: "import { users as value } from '../auth/auth.schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: 'a module importing the aggregate src/db/schema.ts (every table)',
    file: 'server/src/modules/waitlist/boundary-probe.repository.ts',
    code: "import { users as value } from '../../db/schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: "a module using a lower module's repository (waitlist → tickets)",
    file: 'server/src/modules/waitlist/boundary-probe.ts',
    code: "import { createTicketsRepository as value } from '../tickets/tickets.repository.js';",
    rule: 'no-restricted-imports',
    says: "must not use another module's repository",
  },
  {
    why: 'a lazy import() of another module\'s tables (waitlist → tickets)',
    file: 'server/src/modules/waitlist/boundary-probe.ts',
    code: "const value = () => import('../tickets/tickets.schema.js');",
    rule: 'no-restricted-syntax',
    says: "must not import another module's tables",
  },
  {
    why: "checkout's services reading ticket types' tables",
    file: 'server/src/modules/checkout/payments.service.ts',
    code: "import { ticketTypes as value } from '../ticket-types/ticket-types.schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: "checkout's refunds repository reading ticket types' tables (its allowance ended: it asks ticket types' database function)",
    file: 'server/src/modules/checkout/refunds.repository.ts',
    code: "import { ticketTypes as value } from '../ticket-types/ticket-types.schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: "tickets' repository reading checkout's orders (its allowance ended: it asks checkout's database functions)",
    file: 'server/src/modules/tickets/tickets.repository.ts',
    code: "import { orders as value } from '../checkout/payments.schema.js';",
    rule: 'no-restricted-imports',
    says: "must not import another module's tables",
  },
  {
    why: "a higher module's table read through its face (events → ticket-types)",
    file: 'server/src/modules/events/boundary-probe.repository.ts',
    code: "import { ticketTypes as value } from '../ticket-types/index.js';",
    rule: 'no-restricted-imports',
    says: 'not below it in the layering',
  },
  {
    why: 'a public face exporting a repository (waitlist)',
    file: 'server/src/modules/waitlist/index.ts',
    code: "export { createWaitlistRepository } from './waitlist.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "the tickets face exporting a repository (its callers use eventSeats, ticketRegistrations, ticketRecords)",
    file: 'server/src/modules/tickets/index.ts',
    code: "export { createTicketsRepository } from './tickets.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "the auth face exporting a repository (its callers use service functions)",
    file: 'server/src/modules/auth/index.ts',
    code: "export { createUsersRepository } from './users.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "the events face exporting a repository (its callers use service functions)",
    file: 'server/src/modules/events/index.ts',
    code: "export { recordActivity } from './events.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "the ticket-types face exporting a repository (its callers use service functions)",
    file: 'server/src/modules/ticket-types/index.ts',
    code: "export { createTicketTypesRepository } from './ticket-types.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "the checkout face exporting a repository (other modules ask orderQuestions)",
    file: 'server/src/modules/checkout/index.ts',
    code: "export { createPaymentsRepository } from './payments.repository.js';\nconst value = 1;",
    rule: 'no-restricted-imports',
    says: 'never a repository',
  },
  {
    why: "a schema file importing a module's code (waitlist schema → events face)",
    file: 'server/src/modules/waitlist/waitlist.schema.ts',
    code: "import { canSeeEvent as value } from '../events/index.js';",
    rule: 'no-restricted-imports',
    says: "schema file imports only drizzle-orm",
  },
  {
    why: 'the aggregate src/db/schema.ts importing anything but a schema file',
    file: 'server/src/db/schema.ts',
    code: "export * from '../modules/auth/index.js';\nconst value = 1;",
    rule: '@typescript-eslint/no-restricted-imports',
    says: "only gathers the modules' schema files",
  },
  {
    why: "app.ts reaching past a module's face",
    file: 'server/src/boundary-probe.ts',
    code: "import { createTicketsService as value } from './modules/tickets/tickets.service.js';",
    rule: 'no-restricted-imports',
    says: 'only through its public face',
  },
  {
    why: "bootstrap reaching past a module's face",
    file: 'server/src/bootstrap/boundary-probe.ts',
    code: "import { createUsersRepository as value } from '../modules/auth/users.repository.js';",
    rule: 'no-restricted-imports',
    says: 'only through its public face',
  },
  {
    why: 'lib importing a module',
    file: 'server/src/lib/boundary-probe.ts',
    code: "import { createEventsService as value } from '../modules/events/index.js';",
    rule: '@typescript-eslint/no-restricted-imports',
    says: 'below every module',
  },
  {
    why: "lib importing the auth face's code (not only its types)",
    file: 'server/src/lib/boundary-probe.ts',
    code: "import { toAuthUser as value } from '../modules/auth/index.js';",
    rule: '@typescript-eslint/no-restricted-imports',
    says: 'only the types of the auth face',
  },
];

const allowed = [
  {
    why: 'a module importing its own files, lib and db',
    file: 'server/src/modules/events/boundary-probe.ts',
    code: "import { createEventsRepository as value } from './events.repository.js';\nimport { AppError } from '../../lib/app-error.js';\nimport { events } from './events.schema.js';\nimport type { Executor } from '../../db/database.js';\nexport const probe: [unknown, unknown, Executor | null] = [AppError, events, null];",
  },
  {
    why: "a repository reading a lower module's tables from its face, for a join (community → auth's users, tickets' tickets)",
    file: 'server/src/modules/community/boundary-probe.repository.ts',
    code: "import { users as value } from '../auth/index.js';\nimport { tickets } from '../tickets/index.js';\nexport const probe = tickets;",
  },
  {
    why: "a schema file importing other modules' schema files for foreign keys (tickets → checkout's orders, ticket types)",
    file: 'server/src/modules/tickets/tickets.schema.ts',
    code: "import { orders as value } from '../checkout/payments.schema.js';\nimport { ticketTypes } from '../ticket-types/ticket-types.schema.js';\nimport { id } from '../../db/columns.js';\nexport const probe = [ticketTypes, id];",
  },
  {
    why: 'the aggregate src/db/schema.ts gathering a module schema file',
    file: 'server/src/db/schema.ts',
    code: "export * from '../modules/auth/auth.schema.js';\nconst value = 1;",
  },
  {
    why: "a module importing a lower module's face (community → tickets, events, auth)",
    file: 'server/src/modules/community/boundary-probe.ts',
    code: "import { ticketRegistrations as value } from '../tickets/index.js';\nimport { canSeeEvent } from '../events/index.js';\nimport type { AuthUser } from '../auth/index.js';\nexport const probe: [typeof canSeeEvent, AuthUser | null] = [canSeeEvent, null];",
  },
  {
    why: "checkout importing the tickets face (one layer down)",
    file: 'server/src/modules/checkout/boundary-probe.ts',
    code: "import { ticketMessages as value } from '../tickets/index.js';",
  },
  {
    why: "auth importing the faces of chat and contact (below it)",
    file: 'server/src/modules/auth/boundary-probe.ts',
    code: "import { createSendMessage as value } from '../chat/index.js';\nimport { contactBody } from '../contact/index.js';\nexport const probe = contactBody;",
  },
  {
    why: 'a module lazily importing its own file',
    file: 'server/src/modules/events/boundary-probe.ts',
    code: "const value = () => import('./import-formats.js');",
  },
  {
    why: "app.ts and scripts importing modules' faces",
    file: 'server/src/scripts/boundary-probe.ts',
    code: "import { createEventsImportService as value } from '../modules/events/index.js';\nimport { createGeocodingService } from '../modules/geocoding/index.js';\nexport const probe = createGeocodingService;",
  },
  {
    why: "lib naming the auth face's types",
    file: 'server/src/lib/boundary-probe.ts',
    code: "import type { AuthUser } from '../modules/auth/index.js';\nconst value: AuthUser | null = null;",
  },
];

describe('server module boundaries (eslint.config.js)', () => {
  for (const { why, file, code, rule, says } of refused) {
    it(`refuses ${why}`, async () => {
      const errors = await boundaryErrors(file, code);
      expect(errors.map((error) => error.ruleId)).toEqual([rule]);
      expect(errors[0]!.severity).toBe(2);
      expect(errors[0]!.message).toContain(says);
      expect(errors[0]!.message).toContain('server-boundaries.md');
    });
  }

  for (const { why, file, code } of allowed) {
    it(`allows ${why}`, async () => {
      expect(await boundaryErrors(file, code)).toEqual([]);
    });
  }

  it('gives every module a public face', () => {
    const modules = readdirSync(modulesDir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((entry) => !existsSync(new URL(`${entry.name}/index.ts`, modulesDir))).map((entry) => entry.name)).toEqual([]);
  });

  it('finds no boundary violation in the server sources', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['server/src']);
    expect(results.length).toBeGreaterThan(50);
    const violations = results.flatMap((result) =>
      result.messages
        .filter((message) => isBoundaryRule(message.ruleId))
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(violations).toEqual([]);
  });

  it('the docs list every module: the layer table of server-boundaries.md and the layering in architecture.md', () => {
    const modules = readdirSync(modulesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const boundaries = readFileSync(new URL('../../docs/decisions/server-boundaries.md', import.meta.url), 'utf8');
    const tableRows = boundaries.split('\n').filter((line) => /^\s*\| \d+ \|/.test(line));
    const inTable = tableRows.flatMap((row) => row.split('|')[2]!.split(',').map((name) => name.trim())).sort();
    expect(inTable).toEqual(modules);
    const architecture = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    const layering = /Modules are layered, lowest first: (.*?)\. A module/.exec(architecture)?.[1] ?? '';
    expect(layering.split(/←|,/).map((name) => name.trim()).sort()).toEqual(modules);
  });
});
