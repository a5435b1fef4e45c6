import { expect, vi } from 'vitest';
import type { TestServer } from './test-server.js';

/** What the offline SMS simulator received for `phone`, newest first (GET /simulator/sms/messages). */
export async function smsReceivedBy(t: TestServer, phone: string): Promise<Array<{ message: string }>> {
  const gateway = t.config.sms.gateway;
  if (gateway.kind !== 'simulator') throw new Error('this test runs on the SMS simulator');
  const res = await t.api('GET', `/simulator/sms/messages?phone=${phone}`, { headers: { 'x-simulator-key': gateway.key } });
  return res.body;
}

/**
 * The payout-destination code ("Tukio: 123456 is your code…") of the `nth` SMS (1 = the first) `phone`
 * received, once it has arrived; the sender is nudged, so servers that poll rarely answer quickly too.
 */
export async function payoutCodeSentTo(t: TestServer, phone: string, nth = 1): Promise<string> {
  let code: string | undefined;
  await vi.waitFor(
    async () => {
      await t.services.sms.sendDue();
      const messages = await smsReceivedBy(t, phone);
      code = /Tukio: (\d{6})/.exec(messages[messages.length - nth]?.message ?? '')?.[1];
      expect(code).toBeDefined();
    },
    { timeout: 15_000, interval: 50 },
  );
  return code!;
}
