/*
 * What the payment dialog says about M-Pesa phone numbers. Which numbers are accepted, and the form sent
 * ('254' + 9 digits), is normaliseKenyanPhone's (@tukio/shared/phone), as on the payment service.
 */
/** Catalog keys. */
export const PHONE_HINT = 'tickets.phoneHint';
export const PHONE_ERROR = 'tickets.phoneError';
