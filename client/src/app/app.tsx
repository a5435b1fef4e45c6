import { RouterProvider } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { router } from './router';

export function App() {
  return (
    <>
      <RouterProvider router={router} />
      <ToastContainer position="bottom-right" theme="dark" autoClose={8000} newestOnTop />
    </>
  );
}
