import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the scraped-events admin page (and its admin-only guard) is built by later work.
export default function AdminScrapedRoute() {
  return <PlaceholderPage title="Scraped Events" />;
}
