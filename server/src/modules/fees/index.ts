/**
 * The fees module's public face (docs/decisions/server-boundaries.md, docs/decisions/fees.md): the platform fee's
 * rule and settings, and M-Pesa's charges. Layer: above events (an override names an event), below checkout
 * (pricing and settlement read the fee and the charges).
 */
export { basisPoints, FEE_MODES, lineFee, NO_FEE, type FeeMode, type FeeRule } from './fee-rule.js';
export { createAdminFeesRouter } from './fees.routes.js';
export { createFeesService, feeView, type FeesService } from './fees.service.js';
export { DEFAULT_MPESA_TARIFF, MPESA_CHARGE_KINDS, mpesaCharge, NO_MPESA_CHARGES, parseMpesaTariff, type MpesaChargeKind, type MpesaTariff } from './mpesa-tariff.js';
/** Tables other modules may read in a join (pricing reads the fee in force), never write. */
export { eventFeeOverrides, platformFeeSettings } from './fees.schema.js';
export { feesPersonalData } from './personal-data.js';
