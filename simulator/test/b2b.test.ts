import { constants, publicEncrypt } from 'node:crypto';
import { asList, resultParameter } from '@tukio/shared/daraja-protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SIMULATOR_CREDENTIALS } from '../src/config.js';
import { startSimulatorWithMerchant } from './helpers/merchant.js';

/**
 * B2B over Daraja's protocol: BusinessPayBill and BusinessBuyGoods on /mpesa/b2b/v1/paymentrequest, validated as
 * Daraja does (400.002.02 naming the field), their results in the shapes of Daraja's samples, the failure modes,
 * Transaction Status about them, and the ledger.
 */
let merchant: Awaited<ReturnType<typeof startSimulatorWithMerchant>>;
let token: string;
const KEY = 'daraja-test-simulator-key';

beforeAll(async () => {
  merchant = await startSimulatorWithMerchant();
  token = await merchant.accessToken();
});
afterAll(() => merchant?.close());

const credential = (password = SIMULATOR_CREDENTIALS.initiatorPassword) =>
  publicEncrypt({ key: merchant.simulator.payouts.publicKey(), padding: constants.RSA_PKCS1_PADDING }, Buffer.from(password)).toString('base64');

let counter = 0;
const nextShortcode = () => String(700_100 + ++counter);

/** A valid BusinessPayBill request to a new Paybill; `overrides` make it something else (undefined removes a field). */
function b2bBody(overrides: Record<string, unknown> = {}) {
  const body: Record<string, unknown> = {
    Initiator: SIMULATOR_CREDENTIALS.initiatorName,
    SecurityCredential: credential(),
    CommandID: 'BusinessPayBill',
    SenderIdentifierType: '4',
    RecieverIdentifierType: '4',
    Amount: '190',
    PartyA: SIMULATOR_CREDENTIALS.b2cShortcode,
    PartyB: nextShortcode(),
    AccountReference: 'ACC-001',
    Remarks: 'Tukio payout',
    QueueTimeOutURL: `${merchant.base}/callback`,
    ResultURL: `${merchant.base}/callback`,
    ...overrides,
  };
  for (const [name, value] of Object.entries(body)) if (value === undefined) delete body[name];
  return body;
}

const pay = (body: Record<string, unknown>) => merchant.raw('/mpesa/b2b/v1/paymentrequest', body, token);

/** What the simulator posted for the request Daraja named `conversationId`. */
const resultFor = (conversationId: unknown) =>
  vi.waitFor(
    () => {
      const found = merchant.callbacks.find((body: any) => body.Result?.ConversationID === conversationId) as any;
      if (!found) throw new Error(`no result for ${String(conversationId)}`);
      return found.Result;
    },
    { timeout: 5000, interval: 10 },
  );

async function mode(body: Record<string, unknown>) {
  const res = await fetch(`${merchant.base}/simulator/payouts/modes`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-simulator-key': KEY }, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
}

describe('B2B payment requests', () => {
  it('pays a Paybill account and answers in the shapes of Daraja’s sample (strings, arrays)', async () => {
    const body = b2bBody();
    const answer = await pay(body);
    expect(answer).toMatchObject({ status: 200, body: { ResponseCode: '0', ConversationID: expect.stringMatching(/^AG_\d{8}_/), OriginatorConversationID: expect.any(String) } });
    const result = await resultFor(answer.body.ConversationID);
    expect(result).toMatchObject({ ResultType: '0', ResultCode: '0', OriginatorConversationID: answer.body.OriginatorConversationID, TransactionID: expect.stringMatching(/^[A-Z0-9]{10}$/) });
    expect(Array.isArray(result.ResultParameters.ResultParameter)).toBe(true);
    expect(resultParameter(result.ResultParameters.ResultParameter, 'Amount')).toBe('190.00');
    expect(resultParameter(result.ResultParameters.ResultParameter, 'Currency')).toBe('KES');
    expect(resultParameter(result.ResultParameters.ResultParameter, 'ReceiverPartyPublicName')).toMatch(new RegExp(`^${String(body.PartyB)} - `));
    expect(resultParameter(result.ReferenceData.ReferenceItem, 'BillReferenceNumber')).toBe('ACC-001');

    const ledger = (await (await fetch(`${merchant.base}/simulator/ledger`, { headers: { 'x-simulator-key': KEY } })).json()) as any;
    expect(ledger.b2b).toContainEqual(expect.objectContaining({ transactionId: result.TransactionID, amount: 190, commandId: 'BusinessPayBill', partyB: body.PartyB, accountReference: 'ACC-001' }));
    expect(ledger.refunds.map((refund: any) => refund.transactionId)).not.toContain(result.TransactionID);
  });

  it('pays a Till (BusinessBuyGoods) without an account reference', async () => {
    const answer = await pay(b2bBody({ CommandID: 'BusinessBuyGoods', AccountReference: undefined }));
    expect(answer.status).toBe(200);
    expect(await resultFor(answer.body.ConversationID)).toMatchObject({ ResultCode: '0' });
  });

  it.each([
    ['CommandID', { CommandID: 'BusinessPayment' }],
    ['SenderIdentifierType', { SenderIdentifierType: '2' }],
    ['RecieverIdentifierType', { RecieverIdentifierType: '2' }],
    // Spelled correctly, the receiver's type is missing under Daraja's spelling.
    ['RecieverIdentifierType', { RecieverIdentifierType: undefined, ReceiverIdentifierType: '4' }],
    ['Amount', { Amount: 'ten' }],
    ['PartyA', { PartyA: '600000' }],
    ['PartyB', { PartyB: '1234' }],
    ['AccountReference', { AccountReference: undefined }],
    ['AccountReference', { AccountReference: 'A'.repeat(14) }],
    ['Initiator', { Initiator: undefined }],
    ['Remarks', { Remarks: '' }],
    ['ResultURL', { ResultURL: 'https://elsewhere.example.com/result' }],
    ['QueueTimeOutURL', { QueueTimeOutURL: undefined }],
  ])('refuses an invalid %s with 400.002.02 naming it', async (field, overrides) => {
    const before = merchant.simulator.payouts.payouts.size;
    expect(await pay(b2bBody(overrides))).toMatchObject({ status: 400, body: { errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${field}` } });
    expect(merchant.simulator.payouts.payouts.size).toBe(before);
  });

  it('refuses a request without a valid access token', async () => {
    expect(await merchant.raw('/mpesa/b2b/v1/paymentrequest', b2bBody(), 'not-a-token')).toMatchObject({ status: 401, body: { errorCode: '404.001.03' } });
  });

  it('fails with 2001 for a wrong credential, as Daraja’s failure sample (numbers, single objects, a placeholder)', async () => {
    const answer = await pay(b2bBody({ SecurityCredential: credential('wrong-password') }));
    expect(answer.status).toBe(200);
    const result = await resultFor(answer.body.ConversationID);
    expect(result).toMatchObject({ ResultType: 0, ResultCode: 2001, TransactionID: expect.stringMatching(/^[A-Z0-9]{3}0000000$/) });
    expect(Array.isArray(result.ResultParameters.ResultParameter)).toBe(false);
    expect(result.ResultParameters.ResultParameter.Key).toBe('BOCompletedTime');
    expect(Array.isArray(result.ReferenceData.ReferenceItem)).toBe(false);
  });

  it('answers insufficient float (1), an invalid account (2040), a queue timeout and no result as chosen', async () => {
    const [noFloat, badAccount, timedOut, silent] = [nextShortcode(), nextShortcode(), nextShortcode(), nextShortcode()];
    await mode({ mode: 'insufficient-float', phone: noFloat });
    await mode({ mode: 'invalid-account', phone: badAccount });
    await mode({ mode: 'queue-timeout', phone: timedOut });
    await mode({ mode: 'no-result', phone: silent });
    const answers = await Promise.all([noFloat, badAccount, timedOut, silent].map((party) => pay(b2bBody({ PartyB: party }))));
    expect(await resultFor(answers[0]!.body.ConversationID)).toMatchObject({ ResultCode: 1 });
    expect(await resultFor(answers[1]!.body.ConversationID)).toMatchObject({ ResultCode: 2040 });
    expect(await resultFor(answers[2]!.body.ConversationID)).toMatchObject({ ResultType: 1, ResultCode: 1, ResultDesc: expect.stringMatching(/timed out/) });
    const stored = (party: string) => [...merchant.simulator.payouts.payouts.values()].find((payout) => payout.phone === party)!;
    await vi.waitFor(() => expect(stored(silent).posted).toBe('nothing'));
    expect([noFloat, badAccount, timedOut, silent].map((party) => stored(party).status)).toEqual(['failed', 'failed', 'expired', 'paid']);
    expect(merchant.callbacks.filter((body: any) => body.Result?.ConversationID === answers[3]!.body.ConversationID)).toEqual([]);

    // Transaction Status finds the silent one by the ConversationID Daraja gave it: completed, with its receipt.
    const query = await merchant.raw(
      '/mpesa/transactionstatus/v1/query',
      {
        Initiator: SIMULATOR_CREDENTIALS.initiatorName,
        SecurityCredential: credential(),
        CommandID: 'TransactionStatusQuery',
        OriginalConversationID: answers[3]!.body.ConversationID,
        PartyA: SIMULATOR_CREDENTIALS.b2cShortcode,
        IdentifierType: '4',
        ResultURL: `${merchant.base}/callback`,
        QueueTimeOutURL: `${merchant.base}/callback`,
        Remarks: 'status',
      },
      token,
    );
    expect(query.status).toBe(200);
    const status = await resultFor(query.body.ConversationID);
    const parameters = asList(status.ResultParameters.ResultParameter);
    expect(resultParameter(parameters, 'TransactionStatus')).toBe('Completed');
    expect(resultParameter(parameters, 'ReceiptNo')).toBe(stored(silent).transactionId);
    expect(resultParameter(parameters, 'ReasonType')).toBe('Business Pay Bill');
    expect(resultParameter(parameters, 'CreditPartyName')).toMatch(new RegExp(`^${silent} - `));
  });
});
