/**
 * The browser session lives in localStorage (docs/product.md):
 *   - `token`                   the bearer token
 *   - env.userStorageKey        JSON user record {_id, username, avatarImage, isAvatarImageSet}
 *   - `isAvatarImageSet`        'true' | 'false' flag
 *
 * This module is the only place that reads or writes these keys. It is framework-free
 * so the API client can use it; React code uses the `useSession` hook built on top.
 * Snapshots are re-derived from the raw strings on every read, so changes made by other
 * tabs or by code that writes localStorage directly are still picked up.
 */
import { env } from '../config/env';
import type { ApiUser, StoredUser } from '../types/api';

export const TOKEN_KEY = 'token';
export const AVATAR_FLAG_KEY = 'isAvatarImageSet';
export const USER_KEY = env.userStorageKey;
/** localStorage keys with this prefix hold one user's data saved for offline use; logging out removes them. */
export const OFFLINE_PREFIX = 'tukio-offline:';

export interface SessionSnapshot {
  token: string | null;
  user: StoredUser | null;
  /** True when both a token and a user record are stored. */
  isLoggedIn: boolean;
  isAvatarImageSet: boolean;
}

type Listener = () => void;
const listeners = new Set<Listener>();

function readKey(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeKey(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    /* storage unavailable (private mode / quota): the session just won't persist */
  }
}

function parseUser(raw: string | null): StoredUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    if (typeof record._id !== 'string' || record._id === '') return null;
    const user: StoredUser = {
      _id: record._id,
      username: typeof record.username === 'string' ? record.username : '',
      isAvatarImageSet: record.isAvatarImageSet === true,
    };
    if (typeof record.avatarImage === 'string' && record.avatarImage !== '') {
      user.avatarImage = record.avatarImage;
    }
    return user;
  } catch {
    return null;
  }
}

let cachedRaw: [string | null, string | null, string | null] | null = null;
let cachedSnapshot: SessionSnapshot = {
  token: null,
  user: null,
  isLoggedIn: false,
  isAvatarImageSet: false,
};

export function getSessionSnapshot(): SessionSnapshot {
  const raw: [string | null, string | null, string | null] = [
    readKey(TOKEN_KEY),
    readKey(USER_KEY),
    readKey(AVATAR_FLAG_KEY),
  ];
  if (cachedRaw && raw[0] === cachedRaw[0] && raw[1] === cachedRaw[1] && raw[2] === cachedRaw[2]) {
    return cachedSnapshot;
  }
  const [token, userRaw, flagRaw] = raw;
  const user = parseUser(userRaw);
  cachedRaw = raw;
  cachedSnapshot = {
    token: token || null,
    user,
    isLoggedIn: Boolean(token && user),
    isAvatarImageSet: user ? user.isAvatarImageSet || flagRaw === 'true' : flagRaw === 'true',
  };
  return cachedSnapshot;
}

export function getToken(): string | null {
  return getSessionSnapshot().token;
}

/** `Bearer <token>` for the stored token (the Authorization header every API call sends), or null. */
export function getBearer(): string | null {
  const token = getToken();
  return token ? `Bearer ${token}` : null;
}

function notify(): void {
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (
      event.key === null ||
      event.key === TOKEN_KEY ||
      event.key === USER_KEY ||
      event.key === AVATAR_FLAG_KEY
    ) {
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Keeps only the fields docs/product.md says are stored locally. */
export function toStoredUser(user: ApiUser): StoredUser {
  const stored: StoredUser = {
    _id: user._id,
    username: user.username,
    isAvatarImageSet: Boolean(user.isAvatarImageSet),
  };
  if (user.avatarImage) stored.avatarImage = user.avatarImage;
  return stored;
}

function writeUser(user: StoredUser): void {
  writeKey(USER_KEY, JSON.stringify(user));
  writeKey(AVATAR_FLAG_KEY, String(user.isAvatarImageSet));
}

/** Called after a successful login. */
export function saveSession(token: string, user: ApiUser | StoredUser): void {
  writeKey(TOKEN_KEY, token);
  writeUser(toStoredUser(user));
  notify();
}

/** Merges fields into the stored user record (no-op when nobody is stored). */
export function updateStoredUser(patch: Partial<Omit<StoredUser, '_id'>>): void {
  const current = getSessionSnapshot().user;
  if (!current) return;
  const next: StoredUser = { ...current, ...patch };
  if (!next.avatarImage) delete next.avatarImage;
  writeUser(next);
  notify();
}

/** Logout: removes the token, the user record and the avatar flag. */
export function clearSession(): void {
  writeKey(TOKEN_KEY, null);
  writeKey(USER_KEY, null);
  writeKey(AVATAR_FLAG_KEY, null);
  clearOfflineCopies();
  notify();
}

/** Copies of the user's data kept for offline use (their tickets: signed codes) leave with the session. */
function clearOfflineCopies(): void {
  try {
    const keys = Array.from({ length: window.localStorage.length }, (_, index) => window.localStorage.key(index));
    for (const key of keys) if (key?.startsWith(OFFLINE_PREFIX)) window.localStorage.removeItem(key);
  } catch {
    /* storage unavailable: nothing was saved */
  }
}
