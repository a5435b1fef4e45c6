import { lazy } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { paths, routePatterns } from '../config/paths';
import { RootLayout } from '../features/layout/components/root-layout';
import { RouteError } from './route-error';

/*
 * One lazily loaded chunk per route. Heavy libraries (leaflet, emoji picker, qrcode) must only be
 * imported from inside the route modules (or features) that need them, never from here or the layout.
 */
const Home = lazy(() => import('./routes/home'));
const Events = lazy(() => import('./routes/events'));
const EventDetail = lazy(() => import('./routes/event-detail'));
const Plan = lazy(() => import('./routes/plan'));
const Login = lazy(() => import('./routes/login'));
const Register = lazy(() => import('./routes/register'));
const SetAvatar = lazy(() => import('./routes/set-avatar'));
const Profile = lazy(() => import('./routes/profile'));
const Chat = lazy(() => import('./routes/chat'));
const Contact = lazy(() => import('./routes/contact'));
const About = lazy(() => import('./routes/about'));
const ForgotPassword = lazy(() => import('./routes/forgot-password'));
const ResetPassword = lazy(() => import('./routes/reset-password'));
const VerifyEmail = lazy(() => import('./routes/verify-email'));
const ForumThreads = lazy(() => import('./routes/forum-threads'));
const ForumThread = lazy(() => import('./routes/forum-thread'));
const EditEvent = lazy(() => import('./routes/edit-event'));
const Admin = lazy(() => import('./routes/admin'));
const AdminScraped = lazy(() => import('./routes/admin-scraped'));
const CheckIn = lazy(() => import('./routes/checkin'));
const NotFound = lazy(() => import('./routes/not-found'));

export const router = createBrowserRouter([
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError standalone />,
    children: [
      {
        // Errors thrown while rendering a page (e.g. a chunk that failed to load) keep the layout.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Home /> },
          { path: paths.events, element: <Events /> },
          { path: routePatterns.event, element: <EventDetail /> },
          { path: paths.plan, element: <Plan /> },
          { path: paths.login, element: <Login /> },
          { path: paths.register, element: <Register /> },
          { path: paths.setAvatar, element: <SetAvatar /> },
          { path: paths.profile, element: <Profile /> },
          { path: paths.chat, element: <Chat /> },
          { path: paths.contact, element: <Contact /> },
          { path: paths.about, element: <About /> },
          { path: paths.forgotPassword, element: <ForgotPassword /> },
          { path: routePatterns.resetPassword, element: <ResetPassword /> },
          { path: routePatterns.verifyEmail, element: <VerifyEmail /> },
          { path: routePatterns.forums, element: <ForumThreads /> },
          { path: routePatterns.forumThread, element: <ForumThread /> },
          { path: routePatterns.editEvent, element: <EditEvent /> },
          { path: paths.admin, element: <Admin /> },
          { path: paths.adminScraped, element: <AdminScraped /> },
          { path: routePatterns.checkin, element: <CheckIn /> },
          { path: '*', element: <NotFound /> },
        ],
      },
    ],
  },
]);
