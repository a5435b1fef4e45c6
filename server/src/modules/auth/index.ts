/**
 * The auth module's public face (docs/decisions/server-boundaries.md): accounts, sign-in, and the
 * identity a request acts as. Other modules and app.ts import auth only from here.
 */
export { createAuthRouter } from './auth.routes.js';
export { createAuthService, hashPassword, toAuthUser, type AuthService, type AuthUser } from './auth.service.js';
export {
  accountContact,
  accountStanding,
  backfillUsernameSkeletons,
  chatProfiles,
  createShadowAccount,
  createVerifiedAccount,
  ensureAdminAccount,
  ensureSystemAccount,
  findAccountByLogin,
  passwordMatches,
  setAccountLanguage,
  usernameTaken,
} from './accounts.service.js';
/** Tables other modules may read in a join, never write (docs/decisions/server-boundaries.md, "Tables"). */
export { users } from './auth.schema.js';
export { authPersonalData } from './personal-data.js';
export { authRetention } from './retention.js';
