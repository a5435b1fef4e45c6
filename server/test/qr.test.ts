import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrPng } from '../src/modules/tickets/qr.js';
import { insertEventRow } from './helpers/events.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';

// jsqr is CommonJS typed as an ES module: its function is the default export's `default`.
const jsQR = jsqr.default;

/** Reads a PNG's QR code back the way a phone would (jsQR on the decoded pixels); null when unreadable. */
function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('ticket QR codes', () => {
  it('renders a ticket-sized code as a PNG that decodes back to the same text', async () => {
    const text = `TK1.${'q'.repeat(32)}.${'Z'.repeat(86)}`;
    const png = await qrPng(text, 4);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(decodeQr(png)).toBe(text);
  });

  it('emails one QR image per ticket, each decoding to that ticket\'s code', async () => {
    const organiser = await t.createUser('qrorganiser');
    const buyer = await t.createUser('qrbuyer');
    const eventId = await insertEventRow(t.db, { ownerId: organiser.user._id, days: 5, title: 'QR Night', location: 'Uhuru Park, Nairobi' });
    const registered = await t.api('POST', `/api/events/register/${eventId}`, { token: buyer.token, body: { tickets: 2 } });
    expect(registered.status).toBe(200);

    const mine = await t.api('GET', '/api/tickets/mine', { token: buyer.token });
    expect(mine.status).toBe(200);
    const codes = (mine.body as Array<{ code: string }>).map((ticket) => ticket.code).sort();
    expect(codes).toHaveLength(2);

    const mail = await t.smtp.waitFor('qrbuyer@example.com', /Your Tukio tickets: QR Night/);
    const images = mail.attachments.filter((attachment) => attachment.contentType === 'image/png');
    expect(images).toHaveLength(2);
    expect(images.map((image) => decodeQr(image.content)).sort()).toEqual(codes);
  });
});
