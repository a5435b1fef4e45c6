/*
 * The installable, offline-capable app (docs/decisions/offline.md): the service worker's registration
 * and update handshake, and the offline / new-version notices.
 */
export { AppStatus } from './components/app-status';
