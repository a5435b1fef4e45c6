/**
 * Limits the API server enforces and the client shows before sending (input caps, counters). The server's
 * schemas, the payment service and the client's forms read them here, so a change reaches all three.
 * Browser-safe: no imports.
 */

/** Tickets one free registration or one paid order may take. */
export const MAX_TICKETS_PER_ORDER = 10;

/** Accounts: characters of a username, and of a new password (bcrypt reads at most 72 bytes of it). */
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const PASSWORD_MIN_LENGTH = 6;
/** Last page of a username search: further on, a longer prefix is needed. */
export const USER_SEARCH_MAX_PAGE = 10;

/** Characters of an event's text fields. */
export const EVENT_TITLE_MAX = 120;
export const EVENT_DESCRIPTION_MAX = 5000;
export const EVENT_LOCATION_MAX = 200;
/**
 * M-Pesa's per-transaction ceiling, in shillings: an order costing more is refused before its seats are held
 * (Daraja would refuse the push with "Invalid Amount"). The hold's SQL function (server/drizzle) repeats it.
 */
export const MPESA_TRANSACTION_MAX = 250_000;
/** A single ticket cannot cost more than one payment can move. */
export const TICKET_PRICE_MAX = MPESA_TRANSACTION_MAX;
/** Bytes of an uploaded event image. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** Characters of community text: comments, reviews, forum thread titles and posts. */
export const COMMENT_MAX_LENGTH = 2000;
export const REVIEW_MAX_LENGTH = 2000;
export const THREAD_TITLE_MAX_LENGTH = 150;
export const POST_MAX_LENGTH = 5000;

/** Characters of one chat message. */
export const MAX_MESSAGE_LENGTH = 2000;
