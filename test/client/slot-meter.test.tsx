/** The slot meter (spec §2, §9): count/total, segments up to 8 slots, a proportional bar above, unlimited test slots. */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SlotMeter } from '../../client/src/components/slot-meter';
import type { SlotUsage } from '../../events/billing-api';

function slots(overrides: Partial<SlotUsage> = {}): SlotUsage {
  return { basic: { used: 1, total: 3 }, pro: { used: 0, total: 0 }, test: { used: 2, total: 2 }, ...overrides };
}

const row = (name: string) => screen.getByRole('meter', { name }).closest('li') as HTMLElement;

describe('the slot meter', () => {
  it('shows Basic, Pro and Test usage as count/total', () => {
    render(<SlotMeter slots={slots({ pro: { used: 4, total: 12 } })} />);
    expect(within(row('Basic slots')).getByText('Basic')).toBeInTheDocument();
    expect(within(row('Basic slots')).getByText('1/3')).toBeInTheDocument();
    expect(within(row('Pro slots')).getByText('4/12')).toBeInTheDocument();
    expect(within(row('Free test slots')).getByText('2/2')).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Basic slots' })).toHaveAttribute('aria-valuetext', '1 of 3 basic slots used');
  });

  it('draws one segment per slot up to 8 slots, the used ones filled', () => {
    render(<SlotMeter slots={slots({ basic: { used: 5, total: 8 } })} kinds={['basic']} />);
    const meter = screen.getByRole('meter', { name: 'Basic slots' });
    expect(meter.querySelectorAll('.slot-meter__segment')).toHaveLength(8);
    expect(meter.querySelectorAll('.slot-meter__segment--used')).toHaveLength(5);
    expect(meter.querySelector('.slot-meter__bar')).toBeNull();
    expect(screen.queryByRole('meter', { name: 'Pro slots' })).not.toBeInTheDocument();
  });

  it('draws a proportional bar above 8 slots', () => {
    render(<SlotMeter slots={slots({ pro: { used: 9, total: 36 } })} kinds={['pro']} />);
    const meter = screen.getByRole('meter', { name: 'Pro slots' });
    expect(meter.querySelectorAll('.slot-meter__segment')).toHaveLength(0);
    expect(meter.querySelector<HTMLElement>('.slot-meter__fill')?.style.width).toBe('25%');
    expect(meter).toHaveAttribute('aria-valuenow', '9');
    expect(meter).toHaveAttribute('aria-valuemax', '36');
    expect(screen.getByText('9/36')).toBeInTheDocument();
  });

  it('shows unlimited test slots (admins) without a meter', () => {
    render(<SlotMeter slots={slots({ test: { used: 14, total: null } })} />);
    expect(screen.queryByRole('meter', { name: 'Free test slots' })).not.toBeInTheDocument();
    expect(screen.getByText('Unlimited')).toBeInTheDocument();
    expect(screen.getByLabelText('14 used, unlimited')).toHaveTextContent('14/∞');
  });

  it('says so when more slots are used than the plan has (after a downgrade)', () => {
    render(<SlotMeter slots={slots({ basic: { used: 4, total: 3 } })} kinds={['basic']} />);
    const meter = screen.getByRole('meter', { name: 'Basic slots' });
    expect(meter).toHaveAttribute('aria-valuenow', '3');
    expect(meter).toHaveAttribute('aria-valuetext', '4 of 3 basic slots used (over the limit)');
    expect(screen.getByText('4/3')).toHaveClass('slot-meter__count--over');
  });
});
