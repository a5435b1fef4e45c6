import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: event list with search is built by later work.
export default function EventsRoute() {
  return <PlaceholderPage title="Events" />;
}
