import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the forum thread list of an event is built by later work.
export default function ForumThreadsRoute() {
  return <PlaceholderPage title="Event forum" />;
}
