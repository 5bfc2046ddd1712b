/**
 * Every message id of the viewer: `{area}.{key}` for each key of the English sources
 * (messages/en/{area}.json), so a `t()` call naming a message that does not exist fails to
 * compile. A new area's file is added here too.
 */
import type viewer from './messages/en/viewer.json';
import type map from './messages/en/map.json';
import type directions from './messages/en/directions.json';
import type share from './messages/en/share.json';

type Ids<Area extends string, Messages> = `${Area}.${keyof Messages & string}`;

export type MessageId = Ids<'viewer', typeof viewer> | Ids<'map', typeof map> | Ids<'directions', typeof directions> | Ids<'share', typeof share>;
