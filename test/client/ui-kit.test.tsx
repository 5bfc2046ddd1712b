import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssetImage } from '../../client/src/components/ui/asset-image';
import { Checklist, ChecklistItem } from '../../client/src/components/ui/checklist-item';
import { Divider } from '../../client/src/components/ui/divider';
import { FeatureCard } from '../../client/src/components/ui/feature-card';
import { LinkButton } from '../../client/src/components/ui/link-button';
import { LinkCard } from '../../client/src/components/ui/link-card';
import { MODAL_ANIMATION_MS, PAGE_FADE_SECONDS, SCROLL_IN_SECONDS } from '../../client/src/components/ui/motion';
import { FadeIn, FadeUp } from '../../client/src/components/ui/scroll-in';
import { SectionHeading } from '../../client/src/components/ui/section-heading';
import { SegmentedToggle, type SegmentedOption } from '../../client/src/components/ui/segmented-toggle';
import { SelectField } from '../../client/src/components/ui/select-field';

afterEach(() => vi.unstubAllGlobals());

describe('motion constants', () => {
  it('match spec §9', () => {
    expect(MODAL_ANIMATION_MS).toBe(300);
    expect(SCROLL_IN_SECONDS).toBe(0.4);
    expect(PAGE_FADE_SECONDS).toBe(0.2);
  });
});

describe('LinkCard', () => {
  it('is one router link with the title, the background picture and the arrow on the left by default', () => {
    render(
      <MemoryRouter>
        <LinkCard to="/case-study/retail" title="Retail" image="/assets/img/retail.jpg" />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Retail' });
    expect(link).toHaveAttribute('href', '/case-study/retail');
    expect(link).toHaveClass('link-card', 'link-card--arrow-left');
    expect(link.style.backgroundImage).toContain('/assets/img/retail.jpg');
    // The arrow comes before the title.
    expect(link.firstElementChild).toHaveClass('link-card__arrow');
  });

  it('puts the arrow on the right when asked and uses a plain link for another site', () => {
    render(
      <MemoryRouter>
        <LinkCard to="https://docs.example.com" title="Documentation" arrow="right" newTab />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Documentation' });
    expect(link).toHaveAttribute('href', 'https://docs.example.com');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveClass('link-card--arrow-right');
    expect(link.lastElementChild).toHaveClass('link-card__arrow');
  });
});

const BILLING: SegmentedOption<'monthly' | 'annual' | 'lifetime'>[] = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'annual', label: 'Annual' },
  { value: 'lifetime', label: 'Lifetime' },
];

function Billing({ disabled = false, size }: { disabled?: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const [value, setValue] = useState<'monthly' | 'annual' | 'lifetime'>('monthly');
  return (
    <>
      <SegmentedToggle label="Billing period" options={BILLING} value={value} onChange={setValue} disabled={disabled} {...(size ? { size } : {})} />
      <output>chosen {value}</output>
    </>
  );
}

describe('SegmentedToggle', () => {
  it('is a labelled radio group with exactly one chosen value, changed by a click', async () => {
    const user = userEvent.setup();
    render(<Billing size="lg" />);
    const group = screen.getByRole('radiogroup', { name: 'Billing period' });
    expect(group.parentElement).toHaveClass('segmented', 'segmented--lg');
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(3);
    expect(radios.filter((radio) => radio.getAttribute('aria-checked') === 'true')).toHaveLength(1);
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Annual' }));
    expect(screen.getByRole('radio', { name: 'Annual' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Monthly' })).not.toBeChecked();
    expect(screen.getByText('chosen annual')).toBeInTheDocument();
  });

  it('moves the choice with the arrow keys, wrapping around, with only the chosen segment in the tab order', async () => {
    const user = userEvent.setup();
    render(<Billing />);
    await user.tab();
    expect(screen.getByRole('radio', { name: 'Monthly' })).toHaveFocus();
    expect(screen.getByRole('radio', { name: 'Annual' })).toHaveAttribute('tabindex', '-1');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Annual' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Annual' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Lifetime' })).toBeChecked();
    expect(screen.getByText('chosen lifetime')).toBeInTheDocument();
  });

  it('blocks every change when disabled', async () => {
    const user = userEvent.setup();
    render(<Billing disabled />);
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'Annual' }));
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(screen.getByText('chosen monthly')).toBeInTheDocument();
  });
});

describe('SelectField', () => {
  it('is a labelled dropdown whose change reaches the caller, with hint and error tied to it', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(
      <SelectField
        label="Industry"
        placeholder="Choose one"
        defaultValue=""
        options={[
          { value: 'retail', label: 'Retail' },
          { value: 'real-estate', label: 'Real estate' },
        ]}
        hint="Used to suggest a template."
        error="Pick an industry."
        onChange={(event) => onChange(event.target.value)}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Industry' });
    expect(select).toHaveValue('');
    expect(select).toHaveAccessibleDescription('Used to suggest a template. Pick an industry.');
    expect(select).toBeInvalid();
    expect(screen.getByRole('option', { name: 'Choose one' })).toBeDisabled();

    await user.selectOptions(select, 'Real estate');
    expect(select).toHaveValue('real-estate');
    expect(onChange).toHaveBeenCalledWith('real-estate');
  });
});

describe('ChecklistItem', () => {
  it('shows included features with a check and the others muted, saying so to screen readers', () => {
    render(
      <Checklist label="Basic plan features">
        <ChecklistItem>Unlimited locations</ChecklistItem>
        <ChecklistItem included={false}>Custom domain</ChecklistItem>
      </Checklist>,
    );
    const list = screen.getByRole('list', { name: 'Basic plan features' });
    const [included, excluded] = within(list).getAllByRole('listitem');
    expect(included).toHaveTextContent('Unlimited locations');
    expect(included).not.toHaveClass('checklist-item--excluded');
    expect(excluded).toHaveTextContent('Not included: Custom domain');
    expect(excluded).toHaveClass('checklist-item--excluded');
  });
});

describe('SectionHeading and Divider', () => {
  it('shows the eyebrow, the title at the chosen level and the lead', () => {
    render(<SectionHeading eyebrow="Why Mapfold" title="Maps that sell" level={1} lead="Interactive maps in minutes." />);
    expect(screen.getByRole('heading', { level: 1, name: 'Maps that sell' })).toBeInTheDocument();
    expect(screen.getByText('Why Mapfold')).toHaveClass('eyebrow');
    expect(screen.getByText('Interactive maps in minutes.')).toHaveClass('lead');
  });

  it('defaults to an h2 without eyebrow or lead', () => {
    const { container } = render(<SectionHeading title="Pricing" />);
    expect(screen.getByRole('heading', { level: 2, name: 'Pricing' })).toBeInTheDocument();
    expect(container.querySelectorAll('p')).toHaveLength(0);
  });

  it('draws a plain rule, or one with a centred label', () => {
    render(
      <>
        <Divider />
        <Divider label="or" />
      </>,
    );
    const [plain, labelled] = screen.getAllByRole('separator');
    expect(plain?.tagName).toBe('HR');
    expect(labelled).toHaveAccessibleName('or');
    expect(labelled).toHaveTextContent('or');
    expect(labelled).toHaveClass('divider--labelled');
  });
});

/** A controllable IntersectionObserver: `show(true)` brings every observed element into view. */
function stubIntersectionObserver() {
  const observers: { callback: IntersectionObserverCallback; elements: Element[]; observer: IntersectionObserver }[] = [];
  class FakeObserver {
    elements: Element[] = [];
    constructor(public callback: IntersectionObserverCallback) {
      observers.push({ callback, elements: this.elements, observer: this as unknown as IntersectionObserver });
    }
    observe(element: Element) {
      this.elements.push(element);
    }
    unobserve() {}
    disconnect() {
      this.elements.length = 0;
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    show(isIntersecting: boolean) {
      act(() => {
        for (const { callback, elements, observer } of observers) {
          if (elements.length === 0) continue;
          callback(elements.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry), observer);
        }
      });
    },
  };
}

function stubReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion: reduce'),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }));
}

describe('ScrollIn', () => {
  it('shows its content at once where IntersectionObserver is missing', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    render(<FadeUp>Hello there</FadeUp>);
    const wrapper = screen.getByText('Hello there');
    expect(wrapper).toHaveAttribute('data-visible', 'true');
    expect(wrapper).toHaveClass('scroll-in--static');
    expect(wrapper).not.toHaveClass('scroll-in--fade-up');
  });

  it('shows its content at once, without animation, for reduced motion', () => {
    stubIntersectionObserver();
    stubReducedMotion(true);
    render(<FadeIn>Calm</FadeIn>);
    const wrapper = screen.getByText('Calm');
    expect(wrapper).toHaveAttribute('data-visible', 'true');
    expect(wrapper).toHaveClass('scroll-in--static');
    expect(wrapper).not.toHaveClass('scroll-in--fade-in');
  });

  it('fades up over 0.4 s once it scrolls into view, and stays shown by default', () => {
    const io = stubIntersectionObserver();
    stubReducedMotion(false);
    render(<FadeUp>Rising</FadeUp>);
    const wrapper = screen.getByText('Rising');
    expect(wrapper).toHaveClass('scroll-in--fade-up');
    expect(wrapper).toHaveAttribute('data-visible', 'false');
    expect(wrapper.style.getPropertyValue('--scroll-in-duration')).toBe('0.4s');

    io.show(true);
    expect(wrapper).toHaveAttribute('data-visible', 'true');
    expect(wrapper).toHaveClass('scroll-in--visible');
    io.show(false);
    expect(wrapper).toHaveAttribute('data-visible', 'true');
  });

  it('replays each time it comes back into view with once={false}', () => {
    const io = stubIntersectionObserver();
    stubReducedMotion(false);
    render(<FadeIn once={false}>Again</FadeIn>);
    const wrapper = screen.getByText('Again');
    io.show(true);
    expect(wrapper).toHaveAttribute('data-visible', 'true');
    io.show(false);
    expect(wrapper).toHaveAttribute('data-visible', 'false');
    io.show(true);
    expect(wrapper).toHaveAttribute('data-visible', 'true');
  });
});

describe('LinkButton', () => {
  it('is a link styled as a button', () => {
    render(
      <MemoryRouter>
        <LinkButton to="/subscribe" variant="secondary" size="lg">
          Subscribe
        </LinkButton>
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Subscribe' });
    expect(link).toHaveAttribute('href', '/subscribe');
    expect(link).toHaveClass('btn', 'btn--secondary', 'btn--lg');
  });

  it('is a disabled button, not a link, when disabled', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <LinkButton to="/subscribe" disabled>
          Subscribe
        </LinkButton>
      </MemoryRouter>,
    );
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: 'Subscribe' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).not.toHaveAttribute('href');
    await user.tab();
    expect(button).not.toHaveFocus();
  });
});

describe('FeatureCard', () => {
  it('shows the icon, the title as a heading and the text, at least 280px tall', () => {
    render(
      <FeatureCard icon={<svg data-testid="icon" />} title="Live editing">
        <p>Changes appear for everyone at once.</p>
      </FeatureCard>,
    );
    const card = screen.getByRole('article');
    expect(within(card).getByRole('heading', { level: 3, name: 'Live editing' })).toBeInTheDocument();
    expect(within(card).getByText('Changes appear for everyone at once.')).toBeInTheDocument();
    expect(within(card).getByTestId('icon').parentElement).toHaveAttribute('aria-hidden', 'true');
    expect(card).toHaveClass('feature-card');
    expect(card).toHaveStyle({ minHeight: '280px' });
  });
});

describe('AssetImage', () => {
  it('points at the named picture and its @2x variant, lazily, with its size', () => {
    render(<AssetImage name="hero" ext="png" alt="A map of a shopping mall" width={640} height={360} />);
    const img = screen.getByRole('img', { name: 'A map of a shopping mall' });
    expect(img).toHaveAttribute('src', '/assets/img/hero.png');
    expect(img).toHaveAttribute('srcset', '/assets/img/hero.png 1x, /assets/img/hero@2x.png 2x');
    expect(img).toHaveAttribute('width', '640');
    expect(img).toHaveAttribute('height', '360');
    expect(img).toHaveAttribute('loading', 'lazy');
  });

  it('can load eagerly', () => {
    render(<AssetImage name="logo" ext="svg" alt="Mapfold" loading="eager" />);
    expect(screen.getByRole('img', { name: 'Mapfold' })).toHaveAttribute('loading', 'eager');
  });
});
