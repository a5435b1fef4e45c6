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
  /** The promotional SMS opt-in checkbox (unticked unless the person ticks it). */
  smsPromotions: boolean;
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

/** Resolves when the server answers 2xx, rejects otherwise (single-use: features/auth's hook asks once per token). */
export async function verifyEmailRequest(token: string): Promise<void> {
  await api.get(`/auth/verify-email/${encodeURIComponent(token)}`, publicCall);
}
