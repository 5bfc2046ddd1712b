/** The embed SDK's protocol (events/embed-messages.ts): what either side accepts. */
import { describe, expect, it } from 'vitest';
import { EmbedCommand, EmbedEvent, hostOrigin } from '../../events/embed-messages.js';

describe('the embed protocol', () => {
  it('reads the host’s commands with their marker, and nothing else', () => {
    expect(EmbedCommand.parse({ mapfold: 1, type: 'openLocation', id: 'cafe' })).toEqual({ mapfold: 1, type: 'openLocation', id: 'cafe' });
    expect(EmbedCommand.safeParse({ mapfold: 1, type: 'setFloor', floor: 'upper' }).success).toBe(true);
    expect(EmbedCommand.safeParse({ mapfold: 1, type: 'search', query: '' }).success).toBe(true);
    // A group filter is not in the protocol yet (the viewer's first load has no room for it).
    expect(EmbedCommand.safeParse({ mapfold: 1, type: 'setCategory', group: null }).success).toBe(false);
    // Other postMessage traffic on the page, and malformed or unknown commands.
    expect(EmbedCommand.safeParse({ type: 'openLocation', id: 'cafe' }).success).toBe(false);
    expect(EmbedCommand.safeParse({ mapfold: 2, type: 'openLocation', id: 'cafe' }).success).toBe(false);
    expect(EmbedCommand.safeParse({ mapfold: 1, type: 'openLocation', id: '' }).success).toBe(false);
    expect(EmbedCommand.safeParse({ mapfold: 1, type: 'deleteMap' }).success).toBe(false);
    expect(EmbedCommand.safeParse('{"mapfold":1}').success).toBe(false);
  });

  it('reads the map’s events', () => {
    expect(EmbedEvent.safeParse({ mapfold: 1, type: 'locationOpened', id: 'cafe', title: 'Café' }).success).toBe(true);
    expect(EmbedEvent.safeParse({ mapfold: 1, type: 'ready' }).success).toBe(false);
  });

  it('trusts only a plain http(s) origin as the host', () => {
    expect(hostOrigin('https://shop.example')).toBe('https://shop.example');
    expect(hostOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    for (const value of ['*', 'null', '', null, 'https://shop.example/', 'https://shop.example/page', 'javascript:alert(1)', 'file:///x']) {
      expect(hostOrigin(value)).toBeNull();
    }
  });
});
