import { MapState } from '../../../../events/map-states';
import { AdminMapsScreen, type StateOption } from '../../features/admin/components/admin-maps-screen';
import { mapStateLabel, mapStateTone } from '../../features/maps/map-state';
import { paths } from '../../lib/paths';

/** The states an admin filters by (spec §4), labelled as the maps list labels them. */
const stateOptions: StateOption[] = Object.values(MapState).map((value) => ({ value, label: mapStateLabel(value), tone: mapStateTone(value) }));

/** /admin/maps: every map, queried by author, title, state and creation date (spec §6). */
export function AdminMapsPage() {
  return (
    <div className="page">
      <title>All maps · Admin · Mapfold</title>
      <div className="container">
        <div className="page-header">
          <h1>All maps</h1>
          <p>Find any user's maps by author, title, state and creation date.</p>
        </div>
        <AdminMapsScreen stateOptions={stateOptions} mapHref={paths.map.to} />
      </div>
    </div>
  );
}
