/**
 * How fast one socket may subscribe (issue 26): a token bucket per kind of answer. A subscribe
 * answered with a snapshot (a map's whole document, a list) costs a read and a big send, so few
 * may come at once and then one a second; one with a revision (`since`, a gap or a reconnect)
 * costs a range read, so more may. A subscribe over the limit waits for its turn, in its own
 * socket's queue: a page opening its topics never notices, a socket subscribing in a loop only
 * slows itself down (and is closed if it piles up messages, server/live/live-hub.ts).
 */
export type SubscribeKind = 'snapshot' | 'since';

export interface BucketRule {
  /** Subscribes that may come at once. */
  burst: number;
  /** Subscribes a second after that. */
  perSecond: number;
}

export const SUBSCRIBE_LIMITS: Record<SubscribeKind, BucketRule> = {
  snapshot: { burst: 10, perSecond: 1 },
  since: { burst: 30, perSecond: 10 },
};

class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rule: BucketRule,
    private readonly now: () => number,
  ) {
    this.tokens = rule.burst;
    this.at = now();
  }

  /** Takes a token; resolves with how long (ms) the caller must wait for it (0: none). */
  take(): number {
    const now = this.now();
    this.tokens = Math.min(this.rule.burst, this.tokens + ((now - this.at) / 1000) * this.rule.perSecond);
    this.at = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.rule.perSecond) * 1000;
  }
}

export class SubscribeLimit {
  private readonly buckets: Record<SubscribeKind, Bucket>;

  constructor(rules: Record<SubscribeKind, BucketRule> = SUBSCRIBE_LIMITS, now: () => number = Date.now) {
    this.buckets = { snapshot: new Bucket(rules.snapshot, now), since: new Bucket(rules.since, now) };
  }

  /** Takes a subscribe of this kind's turn: how long (ms) it must wait for it (0: none). */
  take(kind: SubscribeKind): number {
    return this.buckets[kind].take();
  }
}
