/** The subscription plans and their prices per map per month (spec §9). */
export interface Plan {
  id: 'basic' | 'professional';
  name: string;
  monthly: number;
  annual: number;
  summary: string;
  features: readonly string[];
}

export const PLANS: readonly Plan[] = [
  {
    id: 'basic',
    name: 'Basic',
    monthly: 10,
    annual: 8,
    summary: 'Publish a map on your website, with everything a visitor needs to find their way.',
    features: ['Hosting for one live map per slot', 'Layers, locations and search', 'Embed anywhere with an iframe', 'Email support'],
  },
  {
    id: 'professional',
    name: 'Professional',
    monthly: 28,
    annual: 24,
    summary: 'For maps that carry a business: more control, richer content and priority help.',
    features: ['Everything in Basic', 'Wayfinding routes between locations', 'Full edit history with restore', 'Priority support'],
  },
];
