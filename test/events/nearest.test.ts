/** "Find the nearest" (issue 29 item 4): distances, order, radius and the visitor's unit. */
import { describe, expect, it } from 'vitest';
import { distanceKm, distanceUnit, formatDistance, nearestFirst, radiusInKm } from '../../events/nearest.js';

const paris = { lat: 48.8566, lng: 2.3522 };
const london = { lat: 51.5074, lng: -0.1278 };
const lyon = { lat: 45.764, lng: 4.8357 };

describe('distances', () => {
  it('are great-circle kilometres: Paris to London about 344 km, none from a place to itself, across the date line the short way', () => {
    expect(distanceKm(paris, london)).toBeCloseTo(343.9, 0);
    expect(distanceKm(paris, paris)).toBe(0);
    // Fiji's two sides of 180°: 111 km apart, not most of the world.
    expect(distanceKm({ lat: -17, lng: 179.5 }, { lat: -17, lng: -179.5 })).toBeCloseTo(106.3, 0);
  });
});

describe('the nearest first', () => {
  const stores = [
    { id: 'lyon', at: lyon },
    { id: 'nowhere', at: null },
    { id: 'london', at: london },
    { id: 'paris', at: paris },
    { id: 'paris-2', at: paris },
  ];
  it('orders by distance (ties as listed), leaves out what has no place, keeps to the radius and the limit', () => {
    const from = { lat: 48.9, lng: 2.3 };
    expect(nearestFirst(stores, (s) => s.at, from).map((n) => n.item.id)).toEqual(['paris', 'paris-2', 'london', 'lyon']);
    expect(nearestFirst(stores, (s) => s.at, from, { radiusKm: 380 }).map((n) => n.item.id)).toEqual(['paris', 'paris-2', 'london']);
    expect(nearestFirst(stores, (s) => s.at, from, { limit: 1 })).toEqual([{ item: stores[3], km: expect.closeTo(6.1, 0) as number }]);
  });
});

describe('the visitor’s unit', () => {
  it('is miles where roads are signed in miles, kilometres elsewhere; English without a region reads miles', () => {
    expect(['en', 'en-US', 'en-GB', 'en_US', 'my-MM'].map(distanceUnit)).toEqual(['mi', 'mi', 'mi', 'mi', 'mi']);
    expect(['en-AU', 'en-IE', 'de', 'fr-CA', 'es', 'ja', 'ar', 'zh-Hans-CN'].map(distanceUnit)).toEqual(['km', 'km', 'km', 'km', 'km', 'km', 'km', 'km']);
  });

  it('writes a distance as people read it, in their language', () => {
    expect(formatDistance(0.348, 'km', 'en')).toBe('350 m');
    expect(formatDistance(1.234, 'km', 'de')).toBe('1,2 km');
    expect(formatDistance(23.4, 'km', 'en')).toBe('23 km');
    expect(formatDistance(5.5, 'mi', 'en-US')).toBe('3.4 mi');
    expect(formatDistance(40, 'mi', 'en-US')).toBe('25 mi');
    expect(radiusInKm(10, 'mi')).toBeCloseTo(16.09, 2);
    expect(radiusInKm(10, 'km')).toBe(10);
  });
});
