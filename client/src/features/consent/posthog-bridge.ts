/**
 * Connects PostHog to the analytics port according to the visitor's choice. Accepted: a sink
 * is added at once, holding the events logged from that moment while the settings and the
 * PostHog chunk load, then handing them over. Declined (or not chosen yet): no sink, no chunk,
 * no request; a withdrawn consent stops PostHog. Events logged before consent never reach it.
 */
import type { PosthogSettings } from '../../../../events/client-config';
import { addAnalyticsSink, type AnalyticsEvent } from '../../lib/analytics';
import type { PosthogSink } from '../../lib/posthog-sink';
import type { ConsentChoice } from './consent-store';

/** Events held while PostHog loads; a page left open offline must not grow without bound. */
const QUEUE_LIMIT = 100;

export interface PosthogBridgeDeps {
  /** PostHog's settings from the server, or null when it is not configured. */
  loadSettings(): Promise<PosthogSettings | null>;
  /** Loads PostHog's client and starts it (lib/posthog-sink.ts). */
  startSink(settings: PosthogSettings): Promise<PosthogSink>;
}

export class PosthogBridge {
  private generation = 0;
  private removeSink: (() => void) | null = null;
  private started: PosthogSink | null = null;

  constructor(private readonly deps: PosthogBridgeDeps) {}

  /** Applies the visitor's current choice; calling it again with the same choice does nothing. */
  update(choice: ConsentChoice | null): void {
    if (choice === 'accepted') {
      if (!this.removeSink) void this.connect();
    } else {
      this.disconnect();
    }
  }

  private async connect(): Promise<void> {
    const generation = ++this.generation;
    const queue: AnalyticsEvent[] = [];
    this.removeSink = addAnalyticsSink((event) => {
      if (this.started) this.started.sink(event);
      else if (queue.length < QUEUE_LIMIT) queue.push(event);
    });
    try {
      const settings = await this.deps.loadSettings();
      if (generation !== this.generation) return;
      if (!settings) {
        // No PostHog on this server: nothing to send, so nothing to hold.
        this.removeSink();
        this.removeSink = () => {};
        return;
      }
      const started = await this.deps.startSink(settings);
      if (generation !== this.generation) {
        started.stop(); // Declined while it loaded.
        return;
      }
      this.started = started;
      for (const event of queue.splice(0)) started.sink(event);
    } catch {
      // PostHog blocked or unreachable: the page goes on, the local recorder still records.
      if (generation === this.generation) {
        this.removeSink?.();
        this.removeSink = () => {};
      }
    }
  }

  private disconnect(): void {
    this.generation++;
    this.removeSink?.();
    this.removeSink = null;
    this.started?.stop();
    this.started = null;
  }
}

/**
 * The page's one bridge. Nothing of it is in the page's first chunk but this class: the
 * settings request (with its schema) and the PostHog client load only once the visitor accepts.
 */
export const posthogBridge = new PosthogBridge({
  loadSettings: async () => {
    const { getClientConfig } = await import('./api/get-client-config');
    return (await getClientConfig()).analytics.posthog;
  },
  startSink: async (settings) => (await import('../../lib/posthog-sink')).startPosthogSink(settings),
});
