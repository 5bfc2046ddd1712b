/**
 * The public map viewer's own entry (viewer.html, served at /m/{id}): only the viewer, no
 * router, accounts or state machines, so a map in a customer's iframe loads little.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ViewerApp } from './features/viewer/viewer-app';
import './viewer-page.css';

const root = document.getElementById('viewer-root');
if (!root) throw new Error('The page has no #viewer-root element.');
const match = /^\/m\/([^/]+)\/?$/.exec(window.location.pathname);
const mapId = match ? decodeURIComponent(match[1]!) : '';
createRoot(root).render(
  <StrictMode>
    <ViewerApp mapId={mapId} />
  </StrictMode>,
);
