/** The pricing, estimate, wayfinding and legal pages (spec §2, §5, §9). */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EstimatePage } from '../../client/src/app/routes/estimate';
import { AgreementPage, PrivacyPage, TermsPage } from '../../client/src/app/routes/legal';
import { PricingPage } from '../../client/src/app/routes/pricing';
import { WayfindingPage } from '../../client/src/app/routes/wayfinding';
import { authRoutes, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

function renderPage(page: React.ReactElement, path = '/') {
  return render(<MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>);
}

const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';

describe('/pricing', () => {
  it('shows both plans monthly, and the annual prices with the saving once Annual is chosen', async () => {
    renderPage(<PricingPage />, '/pricing');
    const basic = screen.getByRole('region', { name: 'Basic' });
    const professional = screen.getByRole('region', { name: 'Professional' });
    expect(within(basic).getByTestId('price-basic')).toHaveTextContent('$10 /mo per map');
    expect(within(professional).getByTestId('price-professional')).toHaveTextContent('$28 /mo per map');

    const toggle = screen.getByRole('radiogroup', { name: 'Billing period' });
    expect(within(toggle).getByRole('radio', { name: 'Monthly' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(within(toggle).getByRole('radio', { name: /Annual/ }));

    expect(within(basic).getByTestId('price-basic')).toHaveTextContent('$8 /mo per map');
    expect(within(professional).getByTestId('price-professional')).toHaveTextContent('$24 /mo per map');
    expect(basic).toHaveTextContent('Billed annually at $96 per map. You save $24 per map a year (20%).');
    expect(professional).toHaveTextContent('You save $48 per map a year (14%).');
  });

  it('has a Subscribe link to #subscribe on each plan', () => {
    renderPage(<PricingPage />, '/pricing');
    for (const plan of ['Basic', 'Professional']) {
      const link = within(screen.getByRole('region', { name: plan })).getByRole('link', { name: `Subscribe to ${plan}` });
      expect(link.getAttribute('href')).toBe('/pricing#subscribe');
    }
  });

  it('explains licences, volume discounts, refunds and the free test maps, and links to the estimate', () => {
    renderPage(<PricingPage />, '/pricing');
    const main = document.body;
    expect(main).toHaveTextContent('Each map needs its own software licence, bought through a marketplace.');
    expect(main).toHaveTextContent('Registering it gives that map 6 months of Basic, free.');
    expect(main).toHaveTextContent('Slots only work with registered maps.');
    expect(screen.getByRole('list', { name: 'Discount thresholds' })).toHaveTextContent('10+ maps50+ maps100+ maps');
    expect(screen.getByRole('link', { name: 'Ask our sales team' })).toHaveAttribute('href', '/contact?topic=sales');
    expect(screen.getByRole('heading', { name: 'No refunds after activation' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2 free test maps' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Estimate your monthly and yearly total' })).toHaveAttribute('href', '/estimate');
  });

  it('answers questions in a FAQ built on details and summary (keyboard and screen readers get them for free)', async () => {
    renderPage(<PricingPage />, '/pricing');
    const question = screen.getByRole('heading', { level: 3, name: 'Can I get a refund?' });
    const details = question.closest('details');
    expect(details).not.toHaveAttribute('open');
    await userEvent.click(question);
    expect(details).toHaveAttribute('open');
    expect(details).toHaveTextContent('No refunds are given after a subscription or a licence is activated.');
  });
});

describe('/estimate', () => {
  const totals = () => ({ monthly: screen.getByTestId('monthly-total'), yearly: screen.getByTestId('yearly-total') });
  const maps = () => screen.getByRole('spinbutton', { name: 'Number of maps' });

  it('starts at 1 Basic map billed monthly: $10/mo and $120/yr', () => {
    renderPage(<EstimatePage />, '/estimate');
    expect(totals().monthly).toHaveTextContent('$10/mo');
    expect(totals().yearly).toHaveTextContent('$120/yr');
    expect(screen.getByText('Switch to annual billing to save $24 a year.')).toBeInTheDocument();
  });

  it('shows 12 Professional maps billed annually as $288/mo and $3,456/yr, live', async () => {
    renderPage(<EstimatePage />, '/estimate');
    await userEvent.clear(maps());
    await userEvent.type(maps(), '12');
    await userEvent.click(screen.getByRole('radio', { name: 'Professional' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Annual' }));

    expect(totals().monthly).toHaveTextContent('$288/mo');
    expect(totals().yearly).toHaveTextContent('$3,456/yr');
    expect(screen.getByText('12 maps × $24/mo per map on Professional, billed annually')).toBeInTheDocument();
    expect(screen.getByText('Annual billing saves you $576 a year over monthly billing.')).toBeInTheDocument();
    // The totals are announced as they change.
    expect(totals().monthly.closest('[aria-live]')).toHaveAttribute('aria-live', 'polite');
    // 12 maps reach the first volume discount, which sales quotes.
    expect(screen.getByText(/you qualify for a volume discount from 10 maps/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask us for a quote' })).toHaveAttribute('href', '/contact?topic=sales');
  });

  it('reverts an out-of-range or non-numeric number of maps on blur, and disables minus at 1', async () => {
    renderPage(<EstimatePage />, '/estimate');
    const minus = screen.getByRole('button', { name: 'Decrease number of maps' });
    expect(minus).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Increase number of maps' }));
    await userEvent.click(screen.getByRole('button', { name: 'Increase number of maps' }));
    expect(maps()).toHaveValue('3');
    expect(minus).toBeEnabled();

    for (const typed of ['0', '1001', 'lots']) {
      await userEvent.clear(maps());
      await userEvent.type(maps(), typed);
      await userEvent.tab();
      expect(maps()).toHaveValue('3');
      expect(totals().monthly).toHaveTextContent('$30/mo');
    }
  });

  it('offers Subscribe (#subscribe) and Talk to us for custom work', () => {
    renderPage(<EstimatePage />, '/estimate');
    expect(screen.getByRole('link', { name: 'Subscribe' }).getAttribute('href')).toBe('/estimate#subscribe');
    expect(screen.getByRole('link', { name: 'Talk to us' })).toHaveAttribute('href', '/contact?topic=custom');
  });
});

describe('/wayfinding', () => {
  it('presents the offering for each kind of place, how it works and where it runs, with the calls to action', () => {
    renderPage(<WayfindingPage />, '/wayfinding');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Get every visitor to the right door');
    for (const place of ['Hospitals', 'Campuses', 'Airports', 'Venues', 'Shopping centres']) {
      expect(screen.getByRole('heading', { level: 3, name: place })).toBeInTheDocument();
    }
    for (const channel of ['On the web', 'On kiosks', 'In your site and app']) {
      expect(screen.getByRole('heading', { level: 3, name: channel })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { level: 2, name: 'From floor plans to routes in weeks, not months' })).toBeInTheDocument();
    for (const link of screen.getAllByRole('link', { name: 'Talk to us' })) expect(link).toHaveAttribute('href', '/contact?topic=custom');
    for (const link of screen.getAllByRole('link', { name: 'See pricing' })) expect(link).toHaveAttribute('href', '/pricing');
  });
});

describe('the legal pages', () => {
  const documents = [
    {
      page: <AgreementPage />,
      path: '/agreement',
      title: 'Service Agreement',
      sections: ['Definitions', 'Subscriptions and slots', 'Map licences', 'Fees, billing and renewal', 'Cancellation', 'No refunds after activation', 'Service levels and support', 'Customer content', 'Acceptable use', 'Warranties and liability', 'Term and termination', 'Governing law', 'Changes to this agreement', 'Contact'],
      mention: 'Slots work only with registered Maps.',
    },
    {
      page: <PrivacyPage />,
      path: '/privacy',
      title: 'Privacy Policy',
      sections: ['Who we are', 'Definitions', 'Data we collect', 'Purposes and legal bases', 'Processors and sharing', 'How long we keep data', 'International transfers', 'Your rights', 'Cookies and consent', 'Children', 'Contact'],
      mention: 'privacy@mapfold.com',
    },
    {
      page: <TermsPage />,
      path: '/terms',
      title: 'Terms & Conditions',
      sections: ['Definitions', 'Using the website and the builder', 'Accounts', 'Acceptable use', 'Intellectual property', 'Third-party links and services', 'Disclaimers', 'Limitation of liability', 'Governing law', 'Changes to these terms', 'Contact'],
      mention: 'hello@mapfold.com',
    },
  ];

  it.each(documents)('$title has an effective date, a table of contents and numbered sections it links to', ({ page, path, title, sections, mention }) => {
    renderPage(page, path);
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByText(/^Effective/).querySelector('time')).toHaveAttribute('dateTime', '2026-11-01');

    const contents = screen.getByRole('navigation', { name: 'Contents' });
    const links = within(contents).getAllByRole('link');
    const headings = screen.getAllByRole('heading', { level: 2 });
    expect(links).toHaveLength(headings.length);
    links.forEach((link, index) => {
      const target = link.getAttribute('href')?.slice(1) ?? '';
      const section = document.getElementById(target);
      expect(section, `section #${target}`).not.toBeNull();
      // The link and the heading it leads to carry the same number and title.
      expect(within(section as HTMLElement).getByRole('heading', { level: 2 })).toHaveTextContent(`${index + 1}. ${link.textContent?.replace(/^\d+\.\s*/, '')}`);
    });
    for (const name of sections) expect(within(contents).getByRole('link', { name: new RegExp(`^\\d+\\. ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })).toBeInTheDocument();
    expect(document.body).toHaveTextContent(mention);
  });
});

describe('titles and descriptions', () => {
  it.each([
    ['/pricing', 'Pricing · Mapfold'],
    ['/estimate', 'Estimate your cost · Mapfold'],
    ['/wayfinding', 'Indoor wayfinding · Mapfold'],
    ['/agreement', 'Service Agreement · Mapfold'],
    ['/privacy', 'Privacy Policy · Mapfold'],
    ['/terms', 'Terms & Conditions · Mapfold'],
  ])('%s has its title, a meta description and one h1, inside the main layout', async (path, title) => {
    stubFetch(authRoutes(null));
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
    // The page is a lazy chunk: its meta description may land a render after the title.
    await waitFor(() => expect(description().length).toBeGreaterThan(80));
    expect(description().length).toBeLessThanOrEqual(200);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByRole('main')).toBeInTheDocument();
  });
});
