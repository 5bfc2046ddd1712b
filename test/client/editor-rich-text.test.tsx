/**
 * The description's rich text editor, in a location's form: typing, the toolbar and its
 * shortcuts (jsdom has no `execCommand`, so these run the editor's DOM fallback), links
 * (http, https and mailto only), the length limit, and safety: hostile markup typed, pasted,
 * dropped or arriving from a collaborator never reaches the page or an edit.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MapEdit } from '../../events/map-edits';
import { expectValidEdits, location, mallDocument, renderPanel, updated } from './support/editor-panel-harness';

const HOSTILE = [
  '<p onclick="alert(1)">Hello <b onmouseover="alert(2)">world</b></p>',
  '<img src="x" onerror="alert(3)">',
  '<script>alert(4)</script>',
  '<a href="javascript:alert(5)">click</a>',
  '<a href="https://ok.example" style="color:red" onclick="alert(6)">ok</a>',
  '<svg><script>alert(7)</script></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<style>body{display:none}</style>',
  '<form action="https://evil.example"><input name="x"></form>',
].join('');

/** Nothing that can run, load or restyle anything. */
function expectSafe(html: string): void {
  expect(html).not.toMatch(/<script|<img|<svg|<iframe|<style|<form|<input/i);
  expect(html).not.toMatch(/\son\w+\s*=/i);
  expect(html).not.toMatch(/javascript:/i);
  expect(html).not.toMatch(/style=/i);
}

function descriptionsOf(edits: MapEdit[][]): string[] {
  return edits.flat().map((edit) => (edit.type === 'LocationUpdated' ? (edit.changes.description ?? '') : ''));
}

async function openEditor(description = '') {
  const document = mallDocument();
  document.locations = [location({ id: 'cafe', title: 'Café Noir', description })];
  const panel = renderPanel({ document, selectedId: 'cafe' });
  const area = await screen.findByRole('textbox', { name: 'Description' });
  return { panel, area };
}

/** Selects the text `text` inside `area` (the first time it occurs). */
function selectText(area: HTMLElement, text: string): void {
  const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.textContent!.indexOf(text);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + text.length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return;
  }
  throw new Error(`no text ${text}`);
}

function toolbar() {
  return screen.getByRole('toolbar', { name: 'Description formatting' });
}

describe('the rich text editor', () => {
  it('is a labelled multi-line textbox with a toolbar', async () => {
    const { area } = await openEditor();
    expect(area).toHaveAttribute('aria-multiline', 'true');
    expect(area).toHaveAttribute('contenteditable', 'true');
    const buttons = within(toolbar()).getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Bold', 'Italic', 'Bulleted list', 'Numbered list', 'Link', 'Remove formatting']);
    expect(within(toolbar()).getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(toolbar()).getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-keyshortcuts', 'Control+B Meta+B');
    // One tab stop; the arrow keys move along the toolbar.
    expect(buttons.map((button) => button.tabIndex)).toEqual([0, -1, -1, -1, -1, -1]);
    const user = userEvent.setup();
    buttons[0]!.focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(buttons[2]).toHaveFocus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(buttons[5]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(buttons[0]).toHaveFocus();
  });

  it('gives the typed text as a LocationUpdated of the description, coalesced', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor('<p>Fresh bread</p>');
    await user.click(area);
    selectText(area, 'bread');
    const range = window.getSelection()!.getRangeAt(0);
    range.collapse(false);
    await user.keyboard('!');
    expect(panel.edits()).toEqual([[updated('cafe', { description: '<p>Fresh bread!</p>' })]]);
    expect(panel.calls[0]!.options).toEqual({ coalesce: 'location:cafe:description' });
    expectValidEdits(panel.calls);
  });

  it('makes the selection bold and italic with the toolbar and with Ctrl/⌘+B and I', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor('<p>Fresh bread daily</p>');
    await user.click(area);
    selectText(area, 'bread');
    await user.keyboard('{Control>}b{/Control}');
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p>Fresh <strong>bread</strong> daily</p>' })]);
    expect(within(toolbar()).getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');

    selectText(area, 'daily');
    await user.keyboard('{Meta>}i{/Meta}');
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p>Fresh <strong>bread</strong> <em>daily</em></p>' })]);
    expect(within(toolbar()).getByRole('button', { name: 'Italic' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(toolbar()).getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'false');

    // The toolbar: Bold again takes the bold off.
    selectText(area, 'bread');
    await user.click(within(toolbar()).getByRole('button', { name: 'Bold' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p>Fresh bread <em>daily</em></p>' }) ]);
    expect(panel.calls.every((call) => call.options?.coalesce === 'location:cafe:description')).toBe(true);
    expectValidEdits(panel.calls);
  });

  it('makes lists and removes formatting', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor('<p>Bread</p><p>Cakes</p>');
    await user.click(area);
    selectText(area, 'Bread');
    await user.click(within(toolbar()).getByRole('button', { name: 'Bulleted list' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<ul><li>Bread</li></ul><p>Cakes</p>' })]);
    expect(within(toolbar()).getByRole('button', { name: 'Bulleted list' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(toolbar()).getByRole('button', { name: 'Numbered list' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<ol><li>Bread</li></ol><p>Cakes</p>' })]);
    await user.click(within(toolbar()).getByRole('button', { name: 'Numbered list' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p>Bread</p><p>Cakes</p>' })]);

    // A collaborator's text arrives once the description is left.
    await user.click(screen.getByRole('heading', { name: 'Café Noir' }));
    panel.collaborator(updated('cafe', { description: '<p><strong>Very <em>good</em> cakes</strong></p>' }));
    await user.click(area);
    selectText(area, 'good');
    await user.click(within(toolbar()).getByRole('button', { name: 'Remove formatting' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p><strong>Very </strong>good<strong> cakes</strong></p>' })]);
    expectValidEdits(panel.calls);
  });

  it('links the selection to http, https and mailto addresses only', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor('<p>See the menu</p>');
    await user.click(area);
    selectText(area, 'menu');
    await user.click(within(toolbar()).getByRole('button', { name: 'Link' }));
    const address = screen.getByRole('textbox', { name: 'Link address' });
    expect(address).toHaveFocus();
    await user.clear(address);
    await user.type(address, 'javascript:alert(1){Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('The address must start with https://, http:// or mailto:');
    await user.clear(address);
    await user.type(address, 'data:text/html,hi{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('The address must start with https://, http:// or mailto:');
    expect(panel.calls).toEqual([]);

    await user.clear(address);
    await user.type(address, 'https://cafe.example/menu{Enter}');
    expect(screen.queryByRole('textbox', { name: 'Link address' })).not.toBeInTheDocument();
    expect(panel.edits()).toEqual([
      [updated('cafe', { description: '<p>See the <a href="https://cafe.example/menu" target="_blank" rel="noopener noreferrer">menu</a></p>' })],
    ]);

    // In the link: change its address, then remove it.
    selectText(area, 'menu');
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.getByRole('textbox', { name: 'Link address' })).toHaveValue('https://cafe.example/menu');
    await user.clear(screen.getByRole('textbox', { name: 'Link address' }));
    await user.type(screen.getByRole('textbox', { name: 'Link address' }), 'mailto:hello@cafe.example');
    await user.click(screen.getByRole('button', { name: 'Update link' }));
    expect(panel.edits().at(-1)).toEqual([
      updated('cafe', { description: '<p>See the <a href="mailto:hello@cafe.example" target="_blank" rel="noopener noreferrer">menu</a></p>' }),
    ]);
    selectText(area, 'menu');
    await user.click(within(toolbar()).getByRole('button', { name: 'Link' }));
    await user.click(screen.getByRole('button', { name: 'Remove link' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { description: '<p>See the menu</p>' })]);

    // Escape closes the prompt without a link.
    await user.click(within(toolbar()).getByRole('button', { name: 'Link' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Link address' })).not.toBeInTheDocument();
    expect(panel.calls).toHaveLength(3);
    expectValidEdits(panel.calls);
  });

  it('sanitises pasted markup, and pastes plain text as text', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor();
    await user.click(area);
    fireEvent.paste(area, { clipboardData: { getData: (type: string) => (type === 'text/html' ? HOSTILE : 'plain'), types: ['text/html', 'text/plain'] } });
    expectSafe(area.innerHTML);
    const [description] = descriptionsOf(panel.edits());
    expect(description).toBe(
      '<p>Hello <b>world</b></p>click<a href="https://ok.example" target="_blank" rel="noopener noreferrer">ok</a>',
    );
    expectSafe(description!);

    await user.paste('<img src=x onerror=alert(1)>\nline two');
    expect(area.querySelector('img')).toBeNull();
    const last = descriptionsOf(panel.edits()).at(-1)!;
    expect(last).toContain('&lt;img src=x onerror=alert(1)&gt;<br>line two');
    expect(panel.calls.every((call) => call.options?.coalesce === 'location:cafe:description')).toBe(true);
    expectValidEdits(panel.calls);
  });

  it('never gives typed markup as markup', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor();
    await user.click(area);
    await user.keyboard('<script>alert(1)</script>');
    const last = descriptionsOf(panel.edits()).at(-1)!;
    expect(last).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expectSafe(last);
  });

  it('sanitises dropped markup', async () => {
    const { panel, area } = await openEditor('<p>Drop here</p>');
    fireEvent.drop(area, { dataTransfer: { getData: (type: string) => (type === 'text/html' ? HOSTILE : ''), types: ['text/html'] } });
    expectSafe(area.innerHTML);
    expect(area).toHaveTextContent('Drop here');
    expect(area).toHaveTextContent('Hello world');
    const descriptions = descriptionsOf(panel.edits());
    expect(descriptions).toHaveLength(1);
    expect(descriptions[0]).toContain('<p>Hello <b>world</b></p>');
    expectSafe(descriptions[0]!);
  });

  it('shows a collaborator’s hostile description sanitised, and follows it only while not focused', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor(HOSTILE);
    expectSafe(area.innerHTML);
    expect(area).toHaveTextContent('Hello world');

    panel.collaborator(updated('cafe', { description: '<p>New text<img src=x onerror="alert(1)"></p>' }));
    await waitFor(() => expect(area.innerHTML).toBe('<p>New text</p>'));

    await user.click(area);
    selectText(area, 'text');
    window.getSelection()!.getRangeAt(0).collapse(false);
    await user.keyboard('!');
    panel.collaborator(updated('cafe', { description: '<p>Theirs</p>' }));
    expect(area.innerHTML).toBe('<p>New text!</p>');
    // Nor while the focus is on its toolbar.
    await user.tab({ shift: true });
    expect(within(toolbar()).getByRole('button', { name: 'Bold' })).toHaveFocus();
    expect(area.innerHTML).toBe('<p>New text!</p>');
    // Leaving the editor shows the description as the document has it now.
    await user.click(screen.getByRole('heading', { name: 'Café Noir' }));
    expect(area.innerHTML).toBe('<p>Theirs</p>');
    expect(panel.calls).toHaveLength(1);
    expect(panel.calls[0]!.options).toEqual({ coalesce: 'location:cafe:description' });
  });

  it('refuses more than 20000 characters, keeping the text', async () => {
    const user = userEvent.setup();
    const { panel, area } = await openEditor();
    await user.click(area);
    await user.paste('a'.repeat(20_001));
    expect(screen.getByText('Description must be at most 20000 characters (now 20,001)')).toBeInTheDocument();
    expect(area).toHaveAttribute('aria-invalid', 'true');
    expect(area).toHaveAccessibleDescription('Description must be at most 20000 characters (now 20,001)');
    expect(area.textContent).toHaveLength(20_001);
    expect(panel.calls).toEqual([]);

    await user.keyboard('{Backspace}');
    expect(screen.queryByText(/must be at most 20000 characters/)).not.toBeInTheDocument();
    // (Compared by length: a failure would print 20,000 letters.)
    expect(panel.calls).toHaveLength(1);
    expect(descriptionsOf(panel.edits())[0]).toHaveLength(20_000);
    expect(panel.edits()[0]).toEqual([updated('cafe', { description: 'a'.repeat(20_000) })]);
    expectValidEdits(panel.calls);
  });
});
