import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: a thread with nested replies is built by later work.
export default function ForumThreadRoute() {
  return <PlaceholderPage title="Discussion" />;
}
