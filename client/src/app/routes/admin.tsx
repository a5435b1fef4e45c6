import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the admin dashboard (and its admin-only guard) is built by later work.
export default function AdminRoute() {
  return <PlaceholderPage title="Admin Dashboard" />;
}
