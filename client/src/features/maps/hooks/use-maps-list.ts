import { topics } from '../../../../../events/topics';
import { useConnectionState, useLiveTopic } from '../../../lib/live';
import { MapList } from '../api/maps-api';

/** The user's maps, live: the list, the topic it comes from, and the socket's state. */
export function useMapsList(uid: string) {
  const topic = topics.maps(uid);
  const { data, error, position } = useLiveTopic(topic, MapList);
  const connection = useConnectionState();
  return { topic, maps: data, error, position, connection };
}
