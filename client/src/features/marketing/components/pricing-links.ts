/** Where the pricing pages send people, and the allowance they quote. */
import { FREE_TEST_SLOTS } from '../../../../../events/map-states';
import { paths } from '../../../lib/paths';

/** The contact page on the sales topic, for volume discounts. */
export const SALES_CONTACT_PATH = `${paths.contact}?topic=sales`;

/** Test maps every account may keep without a subscription (spec §5, §9). */
export const FREE_TEST_MAPS = FREE_TEST_SLOTS;
