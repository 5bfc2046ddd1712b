import { expect, test } from 'vitest';
import { joinGroupNames, splitGroupNames } from '../../events/group-list.js';
test('round trip', () => {
  for (const names of [['Food', 'Drinks'], ['Shoes, bags', 'Toys'], ['a;b', 'say "hi"', ' pad '], [], ['One']]) {
    expect(splitGroupNames(joinGroupNames(names))).toEqual(names);
  }
  expect(splitGroupNames('Food, Drinks')).toEqual(['Food', 'Drinks']);
  expect(splitGroupNames('Food; Drinks')).toEqual(['Food', 'Drinks']);
});
