/**
 * The notice a projection sends (PostgreSQL NOTIFY, at commit) when a batch changed topics:
 * every server process LISTENs and pushes fresh snapshots to its subscribers.
 */
import { z } from 'zod';
import type { Queryable } from '../ports/database.js';

export const LIVE_CHANNEL = 'mapfold_live';

export const LiveNotice = z.object({
  projection: z.string(),
  /** The projection's checkpoint after the batch ("commit:prepare"). */
  position: z.string(),
  topics: z.array(z.string()),
});
export type LiveNotice = z.infer<typeof LiveNotice>;

/** NOTIFY payloads must stay under 8000 bytes: big topic sets go out in several notices. */
const MAX_PAYLOAD = 7000;

export async function sendLiveNotices(tx: Queryable, notice: LiveNotice): Promise<void> {
  let topics: string[] = [];
  const flush = async () => {
    await tx.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, JSON.stringify({ ...notice, topics })]);
    topics = [];
  };
  let size = 0;
  for (const topic of notice.topics) {
    if (size + topic.length + 3 > MAX_PAYLOAD && topics.length > 0) {
      await flush();
      size = 0;
    }
    topics.push(topic);
    size += topic.length + 3;
  }
  if (topics.length > 0) await flush();
}
