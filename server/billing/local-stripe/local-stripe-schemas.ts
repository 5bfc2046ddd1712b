/**
 * What the local test Stripe's routes accept, as zod schemas (server/http/zod-routes.ts): its
 * API's form bodies in Stripe's shapes (the fields the product's Stripe SDK calls send and the
 * API reads) and its hosted pages' HTML forms. The forms are decoded by `qs` into null-prototype
 * objects first (stripe-form.ts); these schemas then say which fields count and what they hold.
 */
import { z } from 'zod';
import { MAX_QUANTITY, MIN_QUANTITY } from '../../../events/billing-api.js';
import type { FormValue } from './stripe-form.js';

/** A Stripe object's id in the path (`cs_test_…`, `sub_test_…`); an unknown one is Stripe's 404. */
export const StripeIdParams = z.object({ id: z.string() });

/** Anything a form can hold, kept as it came (e.g. `shipping_address_collection`, stored as is). */
const FormValueSchema: z.ZodType<FormValue> = z.lazy(() => z.union([z.string(), z.array(FormValueSchema), z.record(z.string(), FormValueSchema)]));

function isMapOfStrings(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

/**
 * Stripe's metadata: a flat map of strings (Stripe refuses anything else too); empty or absent
 * is none. Checked as a whole, so a refusal names `metadata`, not the nested key.
 */
const Metadata = z
  .custom<Record<string, string> | ''>((value) => value === '' || isMapOfStrings(value), { error: 'metadata must be a map of strings' })
  .optional()
  .transform((value): Record<string, string> => (value === undefined || value === '' ? {} : { ...value }));

/** `quantity=3`: a whole number of seats within the plans' bounds. */
const Quantity = z
  .string()
  .transform(Number)
  .refine((quantity) => Number.isInteger(quantity) && quantity >= MIN_QUANTITY && quantity <= MAX_QUANTITY, {
    error: `quantity must be a whole number from ${MIN_QUANTITY} to ${MAX_QUANTITY}`,
  });

/** Stripe's `{enabled: 'true'}` switches, as a boolean. */
const Switch = z
  .object({ enabled: z.string().optional() })
  .optional()
  .transform((value) => value?.enabled === 'true');

/** `POST /v1/checkout/sessions`: a subscription checkout for one price. */
export const CheckoutSessionForm = z.object({
  mode: z.literal('subscription', { error: 'only subscription mode is supported here' }),
  line_items: z
    .array(
      z.object({
        // Which prices exist is the API's to say (Stripe's "No such price").
        price: z.string(),
        quantity: Quantity,
        adjustable_quantity: Switch,
      }),
    )
    .min(1, { error: 'one line item is needed' }),
  success_url: z.string().min(1, { error: 'it must not be empty' }),
  cancel_url: z.string().min(1, { error: 'it must not be empty' }),
  customer: z.string().optional(),
  customer_email: z.string().optional(),
  client_reference_id: z.string().optional(),
  metadata: Metadata,
  subscription_data: z.object({ metadata: Metadata }).optional(),
  allow_promotion_codes: z
    .string()
    .optional()
    .transform((value) => value === 'true'),
  automatic_tax: Switch,
  tax_id_collection: Switch,
  shipping_address_collection: FormValueSchema.optional(),
  /** `custom_text[submit][message]`: the words above the pay button. */
  custom_text: z.object({ submit: z.object({ message: z.string().max(1200, { error: 'it must be at most 1200 characters' }) }).optional() }).optional(),
});

/** `POST /v1/billing_portal/sessions`: a billing page for a customer. */
export const BillingPortalSessionForm = z.object({
  customer: z.string().min(1, { error: 'it must not be empty' }),
  return_url: z.string().optional(),
});

/**
 * A field of a hosted page's form: a string, or absent. Anything else counts as absent, as the
 * pages always treated it: the checkout then keeps its own quantity, and the billing page
 * answers with its own HTML message ("Unknown action", "Quantity not valid"), not a JSON error.
 */
const PageField = z.string().optional().catch(undefined);

/** `POST /checkout/:id/complete`: the seats chosen on the checkout page (when adjustable). */
export const CompleteCheckoutForm = z.object({ quantity: PageField }).catch({});

export const BillingAction = z.enum(['quantity', 'cancel', 'resume', 'end']);

/** `POST /billing/:id/subscriptions/:sub`: one of the billing page's buttons, and its quantity. */
export const ChangeSubscriptionForm = z.object({ action: BillingAction.optional().catch(undefined), quantity: PageField }).catch({});

export const SubscriptionParams = z.object({ id: z.string(), sub: z.string() });
