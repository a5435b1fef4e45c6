import { PlaceholderPage } from '../../components/placeholder-page';

// Placeholder: the home page (trending, upcoming, explore) is built by later work.
export default function HomeRoute() {
  return (
    <PlaceholderPage
      title="Welcome to Tukio"
      intro="Discover, plan and attend the best events in Nairobi, Mombasa and across Kenya."
    />
  );
}
