/**
 * A location's region found in its drawing: by its id, and in a drawing stored before issue 26
 * whose regions kept ids like "11" and "-99", by the element reference the upcasters read old
 * locations' `element` as (elementIdFor), so those maps keep every region linked.
 */
import { describe, expect, it } from 'vitest';
import { regionFinder } from '../../client/src/components/map/find-region';
import { elementIdFor } from '../../events/element-id';

describe('regionFinder', () => {
  it('finds regions by id, and old drawings’ odd ids by their element reference', () => {
    const host = document.createElement('div');
    host.innerHTML = '<svg xmlns="http://www.w3.org/2000/svg"><path id="TX"/><path id="11"/><path id="-99"/><path id="id-11"/></svg>';
    const find = regionFinder(host);
    expect(find('TX')?.id).toBe('TX');
    expect(find(elementIdFor('-99'))?.id).toBe('-99');
    // A drawing that has the escaped id itself (drawn since issue 26) answers it first.
    expect(find(elementIdFor('11'))?.id).toBe('id-11');
    expect(find('nowhere')).toBeNull();
  });
});
