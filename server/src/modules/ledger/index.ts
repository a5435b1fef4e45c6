/**
 * The ledger module's public face (docs/decisions/server-boundaries.md, docs/decisions/ledger.md): the double-entry
 * postings other modules make inside their own transactions (`createLedger`), and the HTTP service and routes.
 */
export { createAdminLedgerRouter, createEventLedgerRouter } from './ledger.routes.js';
export { createLedger, createLedgerService, type Ledger, type LedgerMoney, type LedgerPayout, type LedgerService, type PayoutLeg } from './ledger.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { ledgerEntries, ledgerTransactions } from './ledger.schema.js';
export { ledgerPersonalData } from './personal-data.js';
