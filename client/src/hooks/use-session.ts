import { useSyncExternalStore } from 'react';
import {
  clearSession,
  getSessionSnapshot,
  saveSession,
  subscribeSession,
  updateStoredUser,
  type SessionSnapshot,
} from '../lib/session-store';

export interface Session extends SessionSnapshot {
  /** Store token + user after a successful login. */
  login: typeof saveSession;
  /** Remove token + user record (+ avatar flag). */
  logout: typeof clearSession;
  /** Merge fields into the stored user record. */
  updateUser: typeof updateStoredUser;
}

/** Reactive view of the localStorage session. */
export function useSession(): Session {
  const snapshot = useSyncExternalStore(subscribeSession, getSessionSnapshot, getSessionSnapshot);
  return { ...snapshot, login: saveSession, logout: clearSession, updateUser: updateStoredUser };
}
