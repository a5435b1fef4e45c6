/* Profile feature: the /profile card and "My Events". Tickets and transactions come from the tickets feature. Stylesheet: ./profile.css. */
export { getUser } from './api/profile-api';
export { MyEvents } from './components/my-events';
export { ProfileCard } from './components/profile-card';
export { BlockedUsers } from './components/blocked-users';
export { MyReports } from './components/my-reports';
export { YourData } from './components/your-data';
export { DataExportDownload } from './components/data-export-download';
export { DeleteAccount } from './components/delete-account';
export { AccountDeletionLink } from './components/account-deletion-link';
