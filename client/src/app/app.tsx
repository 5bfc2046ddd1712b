import { useEffect, useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { PageSpinner } from '../components/ui/spinner';
import { fetchAuthConfig, type AuthConfig } from '../features/auth/api/auth-api';
import { AppProvider } from './provider';
import { routes } from './router';

const router = createBrowserRouter(routes);
const navigate = (to: string, options?: { replace?: boolean }) => void router.navigate(to, options);

/** Asks the server how it keeps accounts (local or Clerk), then runs the app in that mode. */
export function App() {
  const [authConfig, setAuthConfig] = useState<AuthConfig | null>(null);
  useEffect(() => {
    let active = true;
    void fetchAuthConfig().then((config) => active && setAuthConfig(config));
    return () => {
      active = false;
    };
  }, []);
  if (!authConfig) return <PageSpinner label="Loading Mapfold" />;
  return (
    <AppProvider authConfig={authConfig} navigate={navigate}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
