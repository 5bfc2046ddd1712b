/**
 * The editor's share and embed panel: the published map's page (/m/{id}, new tab), its link
 * and the embed snippet with Copy buttons that say whether the copy worked, the proportions of
 * the embed, and the test-map notice.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharePanel } from '../../client/src/features/editor/panels/share-panel';
import { embedSnippet } from '../../client/src/utils/embed';

afterEach(() => {
  vi.restoreAllMocks();
  // userEvent.setup() and the tests put their own clipboard on navigator: take it away again.
  Reflect.deleteProperty(navigator, 'clipboard');
});

/** A clipboard that works (or refuses), put in place after userEvent.setup() (which brings its own). */
function stubClipboard(works = true) {
  const writeText = vi.fn(async (text: string) => {
    if (!works) throw new DOMException('Write permission denied.', 'NotAllowedError');
    return void text;
  });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}

const panel = (overrides: Partial<Parameters<typeof SharePanel>[0]> = {}) => (
  <SharePanel mapId="harbour-1" title="Harbour Market" state={1} isTest={false} publicUrl="https://maps.example.com/" {...overrides} />
);

const code = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Embed code' });

describe('the share panel', () => {
  it('opens the published map in a new tab and gives its link', () => {
    render(panel());
    const open = screen.getByRole('link', { name: /Open the published map/ });
    expect(open).toHaveAttribute('href', 'https://maps.example.com/m/harbour-1');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(open).toHaveAccessibleName(/opens in a new tab/);
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue('https://maps.example.com/m/harbour-1');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveAttribute('readonly');
  });

  it('gives the embed snippet: an iframe of /m/{id} in a read-only box, 16:10 unless another proportion is chosen', async () => {
    const user = userEvent.setup();
    render(panel());
    expect(code()).toHaveAttribute('readonly');
    expect(code().value).toBe(embedSnippet({ mapId: 'harbour-1', publicUrl: 'https://maps.example.com/', title: 'Harbour Market' }));
    expect(code().value).toContain('<iframe src="https://maps.example.com/m/harbour-1" title="Map: Harbour Market"');
    const ratios = within(screen.getByRole('radiogroup', { name: 'Proportions' })).getAllByRole('radio');
    expect(ratios.map((radio) => radio.closest('label')!.textContent)).toEqual(['16:10', '4:3', '1:1', '21:9']);
    expect(screen.getByRole('radio', { name: '16:10' })).toBeChecked();
    expect(code().value).toContain('aspect-ratio:1.6;');

    await user.click(screen.getByRole('radio', { name: '4:3' }));
    expect(code().value).toContain('aspect-ratio:1.3333;');
    await user.click(screen.getByRole('radio', { name: '21:9' }));
    expect(code().value).toContain('aspect-ratio:2.3333;');
    expect(code().value).toContain('src="https://maps.example.com/m/harbour-1"');
  });

  it('copies the snippet and the link, and says so', async () => {
    const user = userEvent.setup();
    const writeText = stubClipboard();
    render(panel());
    await user.click(screen.getByRole('radio', { name: '1:1' }));
    await user.click(screen.getByRole('button', { name: 'Copy embed code' }));
    expect(writeText).toHaveBeenCalledWith(code().value);
    expect(writeText.mock.calls[0]![0]).toContain('<iframe src="https://maps.example.com/m/harbour-1"');
    expect(await screen.findByRole('status')).toHaveTextContent('Embed code copied.');

    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenLastCalledWith('https://maps.example.com/m/harbour-1');
    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
  });

  it('says when the browser refuses to copy', async () => {
    const user = userEvent.setup();
    stubClipboard(false);
    // The fallback (select and execCommand) does not work either.
    Object.defineProperty(document, 'execCommand', { value: () => false, configurable: true });
    render(panel());
    await user.click(screen.getByRole('button', { name: 'Copy embed code' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Could not copy: select the embed code and copy it.');
    Reflect.deleteProperty(document, 'execCommand');
  });

  it('says that a test map is seen only by its owner until it is published on a plan', () => {
    render(panel({ state: 0, isTest: true }));
    const note = screen.getByRole('note');
    expect(note).toHaveTextContent('This is a test map: only you can see it.');
    expect(note).toHaveTextContent('Publishing on a Basic or Professional plan makes it public.');
    expect(within(note).getByRole('link')).toHaveAttribute('href', '/maps#subscribe');
  });

  it('has no notice for a published map', () => {
    render(panel({ state: 1, isTest: false }));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
