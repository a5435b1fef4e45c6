import { createHmac, timingSafeEqual } from 'node:crypto';
import { OBJECT_ID_PATTERN } from '@tukio/shared/internal-api';

/** 128 bits of the HMAC: unguessable, and short enough for one SMS. */
const MAC_BYTES = 16;

/**
 * The capability a guest's SMS carries: `<orderId>.<mac>`, the MAC an HMAC-SHA256 of the order id under a
 * server secret. Whoever holds the link sees that order's tickets (the phone that paid got it); nobody can
 * make one for another order without the secret. Nothing is stored, so the link works on every instance.
 */
export function createGuestTicketLinks(options: { secret: string; publicUrl: string }) {
  const mac = (orderId: string) => createHmac('sha256', options.secret).update(`guest-tickets:${orderId}`).digest().subarray(0, MAC_BYTES);

  const token = (orderId: string) => `${orderId}.${mac(orderId).toString('base64url')}`;

  return {
    token,
    url: (orderId: string) => `${options.publicUrl}/t/${token(orderId)}`,
    /** The order a token was made for, or undefined for anything this server did not sign. */
    orderIdOf(value: string): string | undefined {
      const [orderId, given, extra] = value.split('.');
      if (extra !== undefined || !orderId || !given || !OBJECT_ID_PATTERN.test(orderId)) return undefined;
      const presented = Buffer.from(given, 'base64url');
      const expected = mac(orderId);
      return presented.length === expected.length && timingSafeEqual(presented, expected) ? orderId : undefined;
    },
  };
}

export type GuestTicketLinks = ReturnType<typeof createGuestTicketLinks>;
