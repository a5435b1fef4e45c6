/**
 * The client's import boundaries (docs/decisions/client-boundaries.md) are enforced by the root
 * eslint.config.js: a feature never imports another feature or app/, shared code never imports
 * features or app/, and app/ reaches a feature only through its index.ts. This runs ESLint's Node API
 * on deliberately wrong imports (each must be refused) and on right ones (each must pass), then on the
 * real client sources. A unit test: no server or browser needed.
 */
import { describe, expect, it } from 'vitest';
import { createBoundaryProbe, isBoundaryRule } from '../../server/test/helpers/boundary-probe.js';

const { eslint, boundaryErrors } = createBoundaryProbe();

const refused = [
  {
    why: 'a feature importing another feature (events → tickets)',
    file: 'client/src/features/events/components/boundary-probe.tsx',
    code: "import { TicketBox as value } from '../../tickets/components/ticket-box';",
    rule: 'no-restricted-imports',
  },
  {
    why: "a feature importing another feature's public face (chat → events)",
    file: 'client/src/features/chat/components/boundary-probe.tsx',
    code: "import { EventGrid as value } from '../../events';",
    rule: 'no-restricted-imports',
  },
  {
    why: 'a type-only import across features (admin → events)',
    file: 'client/src/features/admin/hooks/boundary-probe.ts',
    code: "import type { EventItem } from '../../events/api/events-api';\nconst value: EventItem | null = null;",
    rule: 'no-restricted-imports',
  },
  {
    why: 'a re-export from another feature at the feature root (profile → tickets)',
    file: 'client/src/features/profile/boundary-probe.ts',
    code: "export { MyTickets } from '../tickets';\nconst value = 1;",
    rule: 'no-restricted-imports',
  },
  {
    why: 'a lazy import() of another feature (layout → auth)',
    file: 'client/src/features/layout/components/boundary-probe.tsx',
    code: "const value = () => import('../../auth/api/auth-api');",
    rule: 'no-restricted-syntax',
  },
  {
    why: 'import.meta.glob into another feature (events → tickets)',
    file: 'client/src/features/events/components/boundary-probe.tsx',
    code: "const value = import.meta.glob('../../tickets/components/ticket-purchase.tsx');",
    rule: 'no-restricted-syntax',
  },
  {
    why: 'a feature importing app/ (layout → app)',
    file: 'client/src/features/layout/components/boundary-probe.tsx',
    code: "import { AppRoutes as value } from '../../../app/router';",
    rule: 'no-restricted-imports',
  },
  {
    why: 'shared code importing a feature (lib → auth)',
    file: 'client/src/lib/boundary-probe.ts',
    code: "import { LoginForm as value } from '../features/auth';",
    rule: 'no-restricted-imports',
  },
  {
    why: 'shared UI importing app/ (components/ui → app)',
    file: 'client/src/components/ui/boundary-probe.tsx',
    code: "import { AppRoutes as value } from '../../app/router';",
    rule: 'no-restricted-imports',
  },
  {
    why: "app/ reaching past a feature's public face",
    file: 'client/src/app/routes/boundary-probe.tsx',
    code: "import { TicketBox as value } from '../../features/tickets/components/ticket-box';",
    rule: 'no-restricted-imports',
  },
  {
    why: "an entry file reaching past a feature's public face",
    file: 'client/src/boundary-probe.tsx',
    code: "import { Header as value } from './features/layout/components/header';",
    rule: 'no-restricted-imports',
  },
];

const allowed = [
  {
    why: 'a feature importing its own internals',
    file: 'client/src/features/events/components/boundary-probe.tsx',
    code: "import { getEvent as value } from '../api/events-api';",
  },
  {
    why: 'a feature importing shared code',
    file: 'client/src/features/chat/components/boundary-probe.tsx',
    code: "import { useSession as value } from '../../../hooks/use-session';\nimport type { EventItem } from '../../../types/api';\nexport type Probe = EventItem;",
  },
  {
    why: 'a feature lazily importing its own module',
    file: 'client/src/features/tickets/components/boundary-probe.tsx',
    code: "const value = () => import('./ticket-purchase');",
  },
  {
    why: "app/ importing a feature's public face and page stylesheet",
    file: 'client/src/app/routes/boundary-probe.tsx',
    code: "import { TicketBox as value } from '../../features/tickets';\nimport '../../features/events/event-detail.css';",
  },
  {
    why: 'app/ lazily importing its own route module',
    file: 'client/src/app/boundary-probe.tsx',
    code: "const value = () => import('./routes/events');",
  },
  {
    why: 'shared code importing shared code',
    file: 'client/src/components/boundary-probe.tsx',
    code: "import { avatarSrc as value } from '../lib/avatar-src';",
  },
];

describe('client import boundaries (eslint.config.js)', () => {
  for (const { why, file, code, rule } of refused) {
    it(`refuses ${why}`, async () => {
      const errors = await boundaryErrors(file, code);
      expect(errors.map((error) => error.ruleId)).toEqual([rule]);
      expect(errors[0]!.severity).toBe(2);
      expect(errors[0]!.message).toContain('client-boundaries.md');
    });
  }

  for (const { why, file, code } of allowed) {
    it(`allows ${why}`, async () => {
      expect(await boundaryErrors(file, code)).toEqual([]);
    });
  }

  it('finds no boundary violation in the client sources', async () => {
    const results = await eslint.lintFiles(['client/src']);
    expect(results.length).toBeGreaterThan(50);
    const violations = results.flatMap((result) =>
      result.messages
        .filter((message) => isBoundaryRule(message.ruleId))
        .map((message) => `${result.filePath}:${message.line} ${message.message}`),
    );
    expect(violations).toEqual([]);
  });
});
