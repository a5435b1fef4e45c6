import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: event detail (tickets, share, comments, reviews) is built by later work.
export default function EventDetailRoute() {
  return <PlaceholderPage title="Event details" />;
}
