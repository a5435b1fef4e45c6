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

export interface PaymentModules {
  start: { startPaymentService(config: unknown, overrides?: { host?: string }): Promise<PaymentService> };
  config: { loadPaymentConfig(env: Record<string, string>): unknown };
  simulator: { startTestSimulator(dataDir: string, env?: Record<string, string>): Promise<Simulator> };
}

export async function loadPaymentService(): Promise<PaymentModules> {
  const base = new URL('../../../payment-service/src/', import.meta.url);
  const [start, config, simulator] = await Promise.all([
    import(new URL('start.ts', base).href),
    import(new URL('config.ts', base).href),
    import(new URL('../test/helpers/daraja-simulator.ts', base).href),
  ]);
  return { start, config, simulator } as PaymentModules;
}
