import { useParams } from 'react-router-dom';
import { ForumThreadsPage } from '../../features/community';

/** /forums/{eventId}: the event's forum threads (docs/product.md). */
export default function ForumThreadsRoute() {
  const { eventId = '' } = useParams();
  return <ForumThreadsPage key={eventId} eventId={eventId} />;
}
