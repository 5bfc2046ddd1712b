import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { parseQuantity, QuantityStepper } from '../../client/src/components/ui/quantity-stepper';

/** A stepper with its value held by a parent, as a page holds it. */
function Harness({ initial = 1, onValue }: { initial?: number; onValue?: (value: number) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <QuantityStepper
        label="Number of maps"
        value={value}
        onChange={(next) => {
          setValue(next);
          onValue?.(next);
        }}
      />
      <output aria-label="Chosen">{value}</output>
      <button type="button">Elsewhere</button>
    </>
  );
}

const input = () => screen.getByRole('spinbutton', { name: 'Number of maps' });
const minus = () => screen.getByRole('button', { name: 'Decrease number of maps' });
const plus = () => screen.getByRole('button', { name: 'Increase number of maps' });

describe('parseQuantity', () => {
  it('accepts whole numbers in range and nothing else', () => {
    expect(parseQuantity('12', 1, 1000)).toBe(12);
    expect(parseQuantity(' 1000 ', 1, 1000)).toBe(1000);
    for (const text of ['', '0', '1001', '2.5', '-3', '1e3', 'ten', '12abc']) expect(parseQuantity(text, 1, 1000)).toBeNull();
  });
});

describe('QuantityStepper (spec §5)', () => {
  it('disables minus at 1 and enables it above', async () => {
    render(<Harness />);
    expect(input()).toHaveValue('1');
    expect(minus()).toBeDisabled();
    await userEvent.click(plus());
    expect(input()).toHaveValue('2');
    expect(minus()).toBeEnabled();
    await userEvent.click(minus());
    expect(input()).toHaveValue('1');
    expect(minus()).toBeDisabled();
  });

  it('disables plus at 1000', async () => {
    render(<Harness initial={999} />);
    await userEvent.click(plus());
    expect(input()).toHaveValue('1000');
    expect(plus()).toBeDisabled();
    expect(input()).toHaveAttribute('aria-valuemax', '1000');
  });

  it('counts valid typing at once', async () => {
    render(<Harness />);
    await userEvent.clear(input());
    await userEvent.type(input(), '42');
    expect(screen.getByLabelText('Chosen')).toHaveTextContent('42');
    expect(input()).toHaveAttribute('aria-valuenow', '42');
  });

  it.each(['0', '1001', 'abc', '2.5', ''])('reverts %j to the previous value on blur', async (typed) => {
    render(<Harness initial={7} />);
    await userEvent.clear(input());
    if (typed) await userEvent.type(input(), typed);
    await userEvent.click(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(input()).toHaveValue('7');
    expect(screen.getByLabelText('Chosen')).toHaveTextContent('7');
  });

  it('steps with the arrow keys, Home and End, within range', async () => {
    render(<Harness initial={5} />);
    await userEvent.click(input());
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowDown}');
    expect(input()).toHaveValue('6');
    await userEvent.keyboard('{Home}');
    expect(input()).toHaveValue('1');
    await userEvent.keyboard('{ArrowDown}');
    expect(input()).toHaveValue('1');
    await userEvent.keyboard('{End}');
    expect(input()).toHaveValue('1000');
  });

  it('is entirely disabled when asked', () => {
    render(<QuantityStepper label="Number of maps" value={3} onChange={() => {}} disabled />);
    expect(input()).toBeDisabled();
    expect(minus()).toBeDisabled();
    expect(plus()).toBeDisabled();
  });
});
