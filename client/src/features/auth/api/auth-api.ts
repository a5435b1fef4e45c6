import { api } from '../../../lib/api-client';
import type { LoginResponse, StatusResponse } from '../../../types/api';
import { getLanguage } from '../../../lib/i18n';

/*
 * Account calls. Per the API contract they answer failures as HTTP 2xx `{status:false, msg}`
 * (except email verification, which is judged by the HTTP status). They are public, so no
 * bearer token is attached and a 401 never ends the current session.
 */
const publicCall = { skipAuth: true, skipSessionReset: true } as const;

export interface LoginInput {
  username: string;
  password: string;
}

export async function loginRequest(input: LoginInput): Promise<LoginResponse> {
  const { data } = await api.post<LoginResponse>('/auth/login', input, publicCall);
  return data;
}

export interface RegisterInput {
  username: string;
  email: string;
  password: string;
}

/** The new account starts in the language the app is in (its verification mail is written in it). */
export async function registerRequest(input: RegisterInput): Promise<StatusResponse> {
  const { data } = await api.post<StatusResponse>('/auth/register', { ...input, language: getLanguage() }, publicCall);
  return data;
}

export async function resendVerificationRequest(username: string): Promise<StatusResponse> {
  const { data } = await api.post<StatusResponse>('/auth/resend-verification', { username }, publicCall);
  return data;
}

export async function forgotPasswordRequest(email: string): Promise<StatusResponse> {
  const { data } = await api.post<StatusResponse>('/auth/forgot-password', { email }, publicCall);
  return data;
}

export async function resetPasswordRequest(token: string, password: string): Promise<StatusResponse> {
  const { data } = await api.post<StatusResponse>(
    `/auth/reset-password/${encodeURIComponent(token)}`,
    { password },
    publicCall,
  );
  return data;
}

// Verification tokens are single-use: share one in-flight request per token so a
// re-mounted page (React StrictMode, fast navigation) cannot burn the token twice.
const verifications = new Map<string, Promise<void>>();

/** Resolves when the server answers 2xx, rejects otherwise. */
export function verifyEmailRequest(token: string): Promise<void> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = api
      .get(`/auth/verify-email/${encodeURIComponent(token)}`, publicCall)
      .then(() => undefined);
    verifications.set(token, pending);
  }
  return pending;
}
