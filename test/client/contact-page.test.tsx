/** The /contact page: the form, its errors from the page and the server, and its topics. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authRoutes, principal, renderApp, stubFetch, type FakeAnswer } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const received = { body: { result: { messageId: 'b1c3' } } };

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Your name'), 'Priya Raman');
  await user.type(screen.getByLabelText('E-mail'), 'priya@harbourmall.example');
  await user.selectOptions(screen.getByLabelText('Topic'), 'sales');
  await user.type(screen.getByLabelText('Message'), 'We would like 12 maps for our malls. Is there a volume discount?');
}

describe('the contact page', () => {
  it('sends the message, shows Sending… on a disabled button meanwhile, then thanks the sender', async () => {
    let answer!: (value: FakeAnswer) => void;
    const { requests } = stubFetch({ ...authRoutes(null), 'POST /api/contact': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderApp('/contact');

    expect(await screen.findByRole('heading', { level: 1, name: 'Contact us' })).toBeInTheDocument();
    expect(document.title).toBe('Contact us · Mapfold');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/within one business day/);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    const busy = await screen.findByRole('button', { name: 'Sending…' });
    expect(busy).toBeDisabled();
    const sent = requests.find((request) => request.path === '/api/contact')!;
    expect(sent.method).toBe('POST');
    expect(sent.data).toMatchObject({
      name: 'Priya Raman',
      email: 'priya@harbourmall.example',
      topic: 'sales',
      message: 'We would like 12 maps for our malls. Is there a volume discount?',
      website: '',
    });
    const { renderedAt, sentAt } = sent.data as { renderedAt: number; sentAt: number };
    expect(sentAt).toBeGreaterThanOrEqual(renderedAt);

    answer(received);
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent("Thanks, Priya Raman. We'll reply to priya@harbourmall.example within one business day.");
    // Focus moves in an effect after the thanks is painted: wait for it as a screen reader would.
    await waitFor(() => expect(status).toHaveFocus());

    await user.click(within(status).getByRole('button', { name: 'Send another message' }));
    expect(screen.getByLabelText('Your name')).toHaveValue('Priya Raman');
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it('shows every problem at once, tied to its field, and focuses the first; nothing is sent', async () => {
    const { requests } = stubFetch({ ...authRoutes(null), 'POST /api/contact': () => received });
    const user = userEvent.setup();
    renderApp('/contact');
    await user.type(await screen.findByLabelText('E-mail'), 'priya-at-harbourmall');
    await user.type(screen.getByLabelText('Message'), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    const name = screen.getByLabelText('Your name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Enter your name.');
    expect(name).toHaveFocus();
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter a valid e-mail address, like name@company.com.');
    expect(screen.getByLabelText('Message')).toHaveAccessibleDescription(/Tell us a little more: at least 10 characters\./);
    expect(requests.some((request) => request.path === '/api/contact')).toBe(false);

    // Typing in a field takes its message away.
    await user.type(name, 'Priya');
    expect(name).not.toHaveAttribute('aria-invalid');
  });

  it("puts the server's field message under its field, and says when the limit is reached", async () => {
    const answers: FakeAnswer[] = [
      { status: 400, body: { error: { status: 'INVALID_ARGUMENT', message: 'email: Enter a valid e-mail address, like name@company.com.' } } },
      { status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED', message: 'Too many attempts. Please wait a few minutes and try again.' } } },
    ];
    stubFetch({ ...authRoutes(null), 'POST /api/contact': () => answers.shift()! });
    const user = userEvent.setup();
    renderApp('/contact');
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));

    const email = await screen.findByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('Enter a valid e-mail address, like name@company.com.');
    expect(email).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Send message' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many messages from this connection');
    expect(alert).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
    expect(within(alert).getByRole('link', { name: 'hello@mapfold.com' })).toHaveAttribute('href', 'mailto:hello@mapfold.com');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  it('opens on the custom work topic from the footer link (?topic=custom), with its own copy', async () => {
    stubFetch(authRoutes(null));
    renderApp('/contact?topic=custom');
    expect(await screen.findByLabelText('Topic')).toHaveDisplayValue('Custom work');
    expect(screen.getByText('Contact · Custom work')).toBeInTheDocument();
    expect(screen.getByText(/Want us to build your map\?/, { selector: '.lead' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'estimate page' })).toHaveAttribute('href', '/estimate');
  });

  it('keeps the honeypot away from people: hidden from screen readers and out of the tab order', async () => {
    stubFetch(authRoutes(null));
    renderApp('/contact');
    await screen.findByLabelText('Your name');
    const trap = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(trap).toHaveAttribute('tabindex', '-1');
    expect(trap).toHaveAttribute('autocomplete', 'off');
    expect(trap.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.getByLabelText('Topic')).toHaveDisplayValue('General question');
  });

  it('fills in the name and e-mail of someone signed in', async () => {
    stubFetch(authRoutes(principal()));
    renderApp('/contact');
    await waitFor(() => expect(screen.getByLabelText('Your name')).toHaveValue('Avery Quinn'));
    expect(screen.getByLabelText('E-mail')).toHaveValue('avery@example.com');
  });
});
