import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the edit event form is built by later work.
export default function EditEventRoute() {
  return <PlaceholderPage title="Edit Event" />;
}
