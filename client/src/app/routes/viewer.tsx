import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { useSession } from '../../lib/session';

// The viewer's code (and its styles) load only when a map is opened.
const ViewerApp = lazy(() => import('../../features/viewer/viewer-app').then((module) => ({ default: module.ViewerApp })));

/**
 * /m/:id inside the app (a link followed without a page load). A direct load of /m/{id} gets
 * the viewer's own small page (viewer.html) from the server instead; both show the same viewer.
 */
export function ViewerPage() {
  const { id = '' } = useParams();
  // Admins see directions on any map with paths: known here from the app's session, never
  // asked by the viewer's own page (CDN-cached, the same for everyone).
  const { admin } = useSession();
  return (
    <Suspense fallback={null}>
      <ViewerApp mapId={id} admin={admin} />
    </Suspense>
  );
}
