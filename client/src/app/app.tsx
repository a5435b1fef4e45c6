import { RouterProvider } from 'react-router-dom';
import { router } from './router';

/* Toasts have no container here: src/lib/notify.ts loads and mounts it on the first toast. */
export function App() {
  return <RouterProvider router={router} />;
}
