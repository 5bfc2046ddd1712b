import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { fetchAuthConfigLight, fetchSignedInUser } from './app/session/first-requests';
import { PageSpinner } from './components/ui/spinner';
import './styles/global.css';

// Both questions go out before React starts, side by side (the header needs their answers).
const authConfig = fetchAuthConfigLight();
const signedInUser = fetchSignedInUser();
// Answered later by whoever reads it; a failure means "signed out" (local-session-shell.tsx).
signedInUser.catch(() => {});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <Suspense fallback={<PageSpinner label="Loading Mapfold" />}>
      <App authConfig={authConfig} signedInUser={signedInUser} />
    </Suspense>
  </StrictMode>,
);
