import { useParams } from 'react-router-dom';
import { ForumThreadPage } from '../../features/community';

/** /forum/{threadId}: one discussion with nested replies (docs/product.md). */
export default function ForumThreadRoute() {
  const { threadId = '' } = useParams();
  return <ForumThreadPage key={threadId} threadId={threadId} />;
}
