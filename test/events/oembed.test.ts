/**
 * oEmbed's pure part (events/oembed.ts): which URLs name a map page of this site, the size
 * answered within a consumer's maxwidth and maxheight, and the answer's shape.
 */
import { describe, expect, it } from 'vitest';
import { embedSize, OEMBED_DEFAULT_WIDTH, OEmbedRich, oembedFor, viewerPageOf } from '../../events/oembed.js';

describe('oEmbed', () => {
  it('takes this site’s viewer pages only, with a location kept', () => {
    const site = 'https://maps.example.com';
    expect(viewerPageOf('https://maps.example.com/m/abc_DEF-1', site)).toEqual({ mapId: 'abc_DEF-1', locationId: null });
    expect(viewerPageOf('http://maps.example.com/m/abc/?location=cafe&lang=fr', site)).toEqual({ mapId: 'abc', locationId: 'cafe' });
    for (const url of ['https://evil.example/m/abc', 'https://maps.example.com/maps/abc', 'https://maps.example.com/m/', 'https://maps.example.com/m/a/b', 'javascript:alert(1)', 'not a url', 'ftp://maps.example.com/m/abc']) {
      expect(viewerPageOf(url, site), url).toBeNull();
    }
    // Under a base path: only pages under it.
    expect(viewerPageOf('https://example.com/maps-site/m/abc', 'https://example.com/maps-site')).toEqual({ mapId: 'abc', locationId: null });
    expect(viewerPageOf('https://example.com/m/abc', 'https://example.com/maps-site/')).toBeNull();
  });

  it('answers 16:10 within maxwidth and maxheight, never below a usable size', () => {
    expect(embedSize()).toEqual({ width: OEMBED_DEFAULT_WIDTH, height: 500 });
    expect(embedSize(640)).toEqual({ width: 640, height: 400 });
    expect(embedSize(2000)).toEqual({ width: 800, height: 500 });
    expect(embedSize(800, 300)).toEqual({ width: 480, height: 300 });
    expect(embedSize(10, 10)).toEqual({ width: 200, height: 125 });
  });

  it('gives the share menu’s responsive snippet, or an iframe of the size asked for', () => {
    const map = { id: 'm1', title: 'Mall "Central" <Level 1>' };
    const responsive = OEmbedRich.parse(oembedFor(map, { publicUrl: 'https://maps.example.com/', locationId: null, cacheAge: 30 }));
    expect(responsive).toMatchObject({ version: '1.0', type: 'rich', provider_name: 'Mapfold', provider_url: 'https://maps.example.com/', title: map.title, width: 800, height: 500, cache_age: 30 });
    expect(responsive.html).toContain('src="https://maps.example.com/m/m1"');
    expect(responsive.html).toContain('aspect-ratio:1.6');
    expect(responsive.html).toContain('title="Map: Mall &quot;Central&quot; &lt;Level 1&gt;"');

    const sized = oembedFor(map, { publicUrl: 'https://maps.example.com', locationId: 'shop 1', maxwidth: 600, cacheAge: 30 });
    expect(sized).toMatchObject({ width: 600, height: 375 });
    expect(sized.html).toMatch(/^<iframe src="https:\/\/maps\.example\.com\/m\/m1\?location=shop\+1" [^>]*width="600" height="375"/);
  });
});
