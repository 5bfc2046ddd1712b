/**
 * The editor's picture of the map (Data panel, panels/picture-export.tsx) hands the map's view on
 * screen to the picture, as the viewer's share menu does: on a floor on a street basemap, that
 * view's MapLibre map is what draws the basemap under the picture (export/basemap-picture.ts),
 * and without it the picture had no basemap (issue 29). The picture's code is stubbed: what it is
 * asked is the point here; test/e2e/basemap-leftovers.test.ts makes the real one in Chromium.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MapView } from '../../client/src/components/map/map-view';
import { Camera } from '../../client/src/components/map/camera';
import { PictureExport } from '../../client/src/features/editor/panels/picture-export';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';

const made = vi.hoisted(() => [] as { mapView?: unknown; layer: { id: string } }[]);
vi.mock('../../client/src/components/map/export/export-picture', () => ({
  makePicture: async (request: (typeof made)[number]) => {
    made.push(request);
    return { blob: new Blob(['png']), fileName: 'map.png', width: 10, height: 10, missingImages: 0, missingFloor: false };
  },
}));
vi.mock('../../client/src/utils/save-blob', () => ({ saveBlob: () => undefined }));

const street: MapDocument = {
  ...emptyMapDocument(),
  layers: [{ id: 'stores', name: 'Stores', file: null, geo: { kind: 'bounds', projection: 'mercator', north: 36.6, south: 25.7, west: -106.8, east: -93.4 }, basemap: true }],
};

describe('the editor’s picture of a floor on a street basemap', () => {
  it('is made with the map’s view on screen at the time of the press', async () => {
    const onScreen = { map: {}, floorState: {} } as unknown as MapView;
    let view: MapView | null = null;
    render(<PictureExport document={street} title="Stores" camera={new Camera()} layerId="stores" mapView={() => view} onNotice={() => undefined} />);
    // The view arrives after the panel (MapLibre's chunk): read when the picture is made.
    view = onScreen;
    fireEvent.click(screen.getByRole('button', { name: 'PNG' }));
    await waitFor(() => expect(made).toHaveLength(1));
    expect(made[0]!.mapView).toBe(onScreen);
    expect(made[0]!.layer.id).toBe('stores');
  });
});
