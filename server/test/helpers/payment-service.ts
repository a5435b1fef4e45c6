/**
 * The payment service and the Daraja simulator live in their own workspaces (outside this tsconfig's rootDir):
 * loaded at run time, typed here by what the server's tests use of them.
 */
export interface PaymentService {
  url: string;
  port: number;
  callbackUrl: string;
  close(): Promise<void>;
}

export interface Simulator {
  url: string;
  paymentEnv: Record<string, string>;
  allowCallbacksTo(url: string): void;
  close(): Promise<void>;
}

/** M-Pesa's books as the payment service's audit reads them (payment-service/src/audit.ts). */
export interface ProviderBooks {
  payments: Array<{ receipt: string; amount: number; phone: string; checkoutRequestId?: string }>;
  refunds: unknown[];
  payouts: Array<{ transactionId: string; originatorConversationId: string; conversationId?: string; amount: number; kind: 'b2c' | 'b2b' }>;
}

export interface PaymentModules {
  start: { startPaymentService(config: unknown, overrides?: { host?: string }): Promise<PaymentService> };
  audit: {
    providerBooks(source: { ledgerUrl: string; key?: string }): Promise<ProviderBooks>;
    auditBooks(config: unknown, books: ProviderBooks): Promise<{ discrepancies: Array<{ kind: string; detail: string }>; checked: { payments: number; refunds: number; payouts: number } }>;
  };
  config: { loadPaymentConfig(env: Record<string, string>): unknown };
  simulator: { startTestSimulator(dataDir: string, env?: Record<string, string>): Promise<Simulator> };
}

export async function loadPaymentService(): Promise<PaymentModules> {
  const base = new URL('../../../payment-service/src/', import.meta.url);
  const [start, audit, config, simulator] = await Promise.all([
    import(new URL('start.ts', base).href),
    import(new URL('audit.ts', base).href),
    import(new URL('config.ts', base).href),
    import(new URL('../test/helpers/daraja-simulator.ts', base).href),
  ]);
  return { start, audit, config, simulator } as PaymentModules;
}
