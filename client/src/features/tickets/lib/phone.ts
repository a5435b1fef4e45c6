/*
 * What the payment dialog says about M-Pesa phone numbers. Which numbers are accepted, and the form sent
 * ('254' + 9 digits), is normaliseKenyanPhone's (@tukio/shared/phone), as on the payment service.
 */
export const PHONE_HINT = 'Safaricom number, e.g. 0712 345 678 or +254 712 345 678.';
export const PHONE_ERROR = 'Enter a Safaricom number such as 0712 345 678 (07…, 7…, +2547… or 2547…).';
