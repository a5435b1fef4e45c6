/* Layout feature: header, footer and the page frame around every route (also rendered by src/prerender.tsx). */
export { AppShell, RootLayout } from './components/root-layout';
