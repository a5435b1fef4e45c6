import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the event submission form is built by later work.
export default function PlanRoute() {
  return (
    <PlaceholderPage
      title="Plan an Event"
      intro="Posting an event is free. Events appear once approved."
      status="empty"
    />
  );
}
