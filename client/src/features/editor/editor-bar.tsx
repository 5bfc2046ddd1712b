/**
 * The editor's top bar: back to the maps, the title (renamed in place), where saving stands, who
 * else is here, sharing, undo and redo, and the preview switch.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { MapDocument } from '../../../../events/map-document';
import type { MapPoint } from '../../components/map/types';
import type { EditorController } from './controller/editor-controller';
import { EditorIcon } from './editor-icons';
import type { EditorSnapshot } from './editor-session';
import { PresenceAvatars } from './presence';
import { SaveStatus } from './save-status';
import { TitleField } from './title-field';

export interface EditorBarProps {
  controller: EditorController;
  snapshot: EditorSnapshot;
  document: MapDocument;
  /** Brings a point of the floor shown to the middle of the map (another person's avatar). */
  centreOn: (at: MapPoint) => void;
  mapId: string;
  title: string;
  explore: boolean;
  titleEditable: boolean;
  preview: boolean;
  mapsHref: string;
  onTitleChange: (title: string) => void;
  /** The Share button (who can open the map), when there is one. */
  sharing: ReactNode;
}

export function EditorBar({ controller, snapshot, document, centreOn, mapId, title, explore, titleEditable, preview, mapsHref, onTitleChange, sharing }: EditorBarProps) {
  const session = controller.session;
  return (
    <div className="ed-bar">
      <Link to={explore ? '/' : mapsHref} className="ed-icon-button ed-bar__back" aria-label={explore ? 'Home' : 'Your maps'}>
        <EditorIcon name="back" />
      </Link>
      <TitleField mapId={mapId} title={title} editable={titleEditable} onSaved={onTitleChange} onError={controller.toast} />
      <SaveStatus status={snapshot.status} unsaved={snapshot.unsaved} />
      <div className="ed-bar__actions">
        <PresenceAvatars centreOn={centreOn} document={document} onLayerChange={controller.setLayer} />
        {sharing}
        <div className="ed-bar__group" role="group" aria-label="History">
          <button type="button" className="ed-icon-button" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!snapshot.canUndo} onClick={session.undo}>
            <EditorIcon name="undo" />
          </button>
          <button type="button" className="ed-icon-button" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!snapshot.canRedo} onClick={session.redo}>
            <EditorIcon name="redo" />
          </button>
        </div>
        <button type="button" className="ed-button" aria-label={preview ? 'Back to editing' : 'Preview'} aria-pressed={preview} onClick={controller.togglePreview}>
          <EditorIcon name={preview ? 'edit' : 'eye'} size={16} />
          <span>{preview ? 'Back to editing' : 'Preview'}</span>
        </button>
      </div>
    </div>
  );
}
