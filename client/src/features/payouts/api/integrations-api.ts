/*
 * INTEGRATIONS API (server modules api-keys and webhooks, docs/decisions/webhooks.md): the signed-in organiser's
 * API keys (the key itself only in the create answer) and webhook endpoints (the secret only in the add answer),
 * and the webhook delivery log with "send again".
 */
import { api } from '../../../lib/api-client';

export const API_KEY_SCOPES = ['events:read', 'orders:read', 'attendees:read', 'checkins:write'] as const;
export const WEBHOOK_EVENTS = ['order.paid', 'ticket.cancelled', 'ticket.transferred', 'refund.succeeded', 'ticket.checked_in', 'payout.paid'] as const;

export interface ApiKey {
  _id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}
export interface WebhookEndpoint {
  _id: string;
  url: string;
  events: string[];
  createdAt: string;
}
export interface WebhookDelivery {
  _id: string;
  url: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  attempts: Array<{ at: string; statusCode: number | null; error: string | null }>;
}

export const apiKeysKey = ['api-keys'] as const;
export const webhooksKey = ['webhooks'] as const;
export const deliveriesKey = ['webhooks', 'deliveries'] as const;

export const listApiKeys = async (signal?: AbortSignal) => (await api.get<{ apiKeys: ApiKey[] }>('/api-keys', { signal })).data.apiKeys;
export const createApiKey = async (input: { name: string; scopes: string[] }) => (await api.post<{ apiKey: ApiKey; key: string }>('/api-keys', input)).data;
export const revokeApiKey = async (id: string) => (await api.delete<{ apiKey: ApiKey }>(`/api-keys/${id}`)).data;
export const listWebhooks = async (signal?: AbortSignal) => (await api.get<{ endpoints: WebhookEndpoint[] }>('/webhooks', { signal })).data.endpoints;
export const addWebhook = async (input: { url: string; events: string[] }) => (await api.post<{ endpoint: WebhookEndpoint; secret: string }>('/webhooks', input)).data;
export const removeWebhook = async (id: string) => (await api.delete(`/webhooks/${id}`)).data;
export const listDeliveries = async (signal?: AbortSignal) => (await api.get<{ deliveries: WebhookDelivery[] }>('/webhooks/deliveries', { signal })).data.deliveries;
export const sendAgain = async (id: string) => (await api.post(`/webhooks/deliveries/${id}/send-again`, {})).data;
