import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';

// The viewer's code (and its styles) load only when a map is opened.
const ViewerApp = lazy(() => import('../../features/viewer/viewer-app').then((module) => ({ default: module.ViewerApp })));

/**
 * /m/:id inside the app (a link followed without a page load). A direct load of /m/{id} gets
 * the viewer's own small page (viewer.html) from the server instead; both show the same viewer.
 */
export function ViewerPage() {
  const { id = '' } = useParams();
  return (
    <Suspense fallback={null}>
      <ViewerApp mapId={id} />
    </Suspense>
  );
}
