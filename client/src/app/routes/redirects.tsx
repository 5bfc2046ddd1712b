import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';
import { browser } from '../../lib/browser';
import { config } from '../../lib/config';
import { paths } from '../../lib/paths';

/** Sends the browser to another site (replacing this entry, so Back does not loop). */
export function ExternalRedirect({ to, label }: { to: string; label: string }) {
  useEffect(() => {
    browser.replaceLocation(to);
  }, [to]);
  return (
    <div className="container page">
      <title>{`${label} · Mapfold`}</title>
      <p className="muted">
        Taking you to the {label.toLowerCase()}… If nothing happens, <a href={to}>open it here</a>.
      </p>
    </div>
  );
}

export const DocsRedirect = () => <ExternalRedirect to={config.docsUrl} label="Documentation" />;
export const RoutesRedirect = () => <ExternalRedirect to={config.routesUrl} label="Wayfinding site" />;
export const DemoRedirect = () => <Navigate to={paths.map.to(config.demoMapId)} replace />;
