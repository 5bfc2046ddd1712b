/**
 * The locations list's multi-select and bulk actions, used as a person uses them: boxes,
 * shift-click ranges, "Select all" for what the search matches, the keyboard (Space, Shift+Space,
 * Shift+arrows, Esc), and the bar's Delete (asked once, one edit), Group and Move to floor (one
 * call each, so one undo step). Every edit given is checked against its document.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EditorSession } from '../../client/src/features/editor/editor-session';
import { expectValidEdits, location, mallDocument, renderPanel, updated } from './support/editor-panel-harness';

const box = (title: string) => screen.getByRole('checkbox', { name: `Select ${title}` });
const bar = () => screen.getByRole('region', { name: 'Selected locations' });
const selectedTitles = (titles: string[]) => titles.filter((title) => (box(title) as HTMLInputElement).checked);
const announced = () => document.querySelector('.ep-loc [aria-live="polite"]:not([role])')?.textContent;
const notice = () => document.querySelector('.ep-loc-notice p')?.textContent;
const GROUND = ['Café Noir', 'Cash machine', 'Müller Bäckerei', 'Page Turner Books', 'Storeroom'];

describe('selecting locations in the list', () => {
  it('toggles a box per row, takes a range with shift-click, and says the count', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();

    await user.click(box('Café Noir'));
    expect(within(bar()).getByText('1 selected')).toBeInTheDocument();
    expect(announced()).toBe('1 location selected');

    // Shift-click: everything from the last box clicked to this one.
    await user.keyboard('{Shift>}');
    await user.click(box('Page Turner Books'));
    await user.keyboard('{/Shift}');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir', 'Cash machine', 'Müller Bäckerei', 'Page Turner Books']);
    expect(within(bar()).getByText('4 selected')).toBeInTheDocument();
    expect(announced()).toBe('4 locations selected');

    // A shift-click on a selected box takes the range back out.
    await user.keyboard('{Shift>}');
    await user.click(box('Cash machine'));
    await user.keyboard('{/Shift}');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir']);

    // Ctrl-click on a row selects it instead of opening it.
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('button', { name: /^Storeroom/ }));
    await user.keyboard('{/Control}');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir', 'Storeroom']);
    expect(panel.onSelect).not.toHaveBeenCalled();
    expect(panel.calls).toEqual([]);
  });

  it('"Select all" takes what the search matches on this floor, and keeps the rest of the selection', async () => {
    const user = userEvent.setup();
    renderPanel();
    const selectAll = screen.getByRole('checkbox', { name: 'Select all 5 locations on Ground floor' });
    await user.click(box('Storeroom'));
    expect(selectAll).toHaveAttribute('aria-checked', 'mixed');
    expect((selectAll as HTMLInputElement).indeterminate).toBe(true);

    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'food');
    // "Food & drink": the two on this floor, not Sakura Sushi upstairs.
    const matches = await screen.findByRole('checkbox', { name: 'Select all 2 matches on Ground floor' });
    expect(matches).not.toBeChecked();
    await user.click(matches);
    expect(matches).toBeChecked();
    expect(within(bar()).getByText('3 selected')).toBeInTheDocument();
    // Storeroom, selected before the search, is outside the list now, and says so.
    expect(within(bar()).getByText('1 outside this list')).toBeInTheDocument();

    // Unticked: the matches leave the selection, Storeroom stays.
    await user.click(matches);
    expect(within(bar()).getByText('1 selected')).toBeInTheDocument();
    await user.clear(screen.getByRole('searchbox', { name: 'Search locations' }));
    await waitFor(() => expect(selectedTitles(GROUND)).toEqual(['Storeroom']));
  });

  it('"Select all" on a big map takes every match, past the 200 shown', async () => {
    const user = userEvent.setup();
    const document = mallDocument();
    document.locations = Array.from({ length: 450 }, (_, index) => location({ id: `shop-${index}`, title: `Shop ${index + 1}` }));
    renderPanel({ document });
    await user.click(screen.getByRole('checkbox', { name: 'Select all 450 locations on Ground floor' }));
    expect(within(bar()).getByText('450 selected')).toBeInTheDocument();
  });

  it('works from the keyboard: Space, Shift+Space, Shift+arrows, and Esc clears', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const search = screen.getByRole('searchbox', { name: 'Search locations' });
    await user.click(search);
    // Down into the list (the titles), left to the row's box, Space ticks it.
    await user.keyboard('{ArrowDown}{ArrowLeft}');
    expect(box('Café Noir')).toHaveFocus();
    await user.keyboard(' ');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir']);
    // Down the boxes, and Shift+Space takes the range.
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box('Müller Bäckerei')).toHaveFocus();
    await user.keyboard('{Shift>} {/Shift}');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir', 'Cash machine', 'Müller Bäckerei']);
    // Shift+Down grows the range, Shift+Up shrinks it back.
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(box('Storeroom')).toHaveFocus();
    expect(selectedTitles(GROUND)).toEqual(GROUND);
    await user.keyboard('{Shift>}{ArrowUp}{/Shift}');
    expect(selectedTitles(GROUND)).toEqual(['Café Noir', 'Cash machine', 'Müller Bäckerei', 'Page Turner Books']);
    // Right to the title: Enter still opens... after Esc, which clears the selection first.
    await user.keyboard('{Escape}');
    expect(selectedTitles(GROUND)).toEqual([]);
    expect(announced()).toBe('Selection cleared');
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(panel.onSelect).toHaveBeenLastCalledWith('books');
    expect(panel.calls).toEqual([]);
  });

  it('Esc in the search box empties it first, then clears the selection', async () => {
    const user = userEvent.setup();
    renderPanel();
    await user.click(box('Storeroom'));
    const search = screen.getByRole('searchbox', { name: 'Search locations' });
    await user.type(search, 'caf');
    await user.keyboard('{Escape}');
    expect(search).toHaveValue('');
    expect(within(bar()).getByText('1 selected')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();
  });

  it('keeps the selection while a location is open, and drops what a collaborator removed', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    await user.click(box('Café Noir'));
    await user.click(box('Storeroom'));
    await user.click(screen.getByRole('button', { name: /^Müller Bäckerei/ }));
    await user.click(screen.getByRole('button', { name: 'All locations' }));
    expect(selectedTitles(GROUND)).toEqual(['Café Noir', 'Storeroom']);
    panel.collaborator({ type: 'LocationRemoved', id: 'store' });
    expect(within(bar()).getByText('1 selected')).toBeInTheDocument();
  });
});

describe('bulk actions', () => {
  it('deletes the selection after one confirmation naming the count: one edit, one undo step', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    const before = panel.document();
    await user.click(screen.getByRole('checkbox', { name: 'Select all 5 locations on Ground floor' }));
    await user.click(box('Storeroom'));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));

    const dialog = screen.getByRole('dialog', { name: 'Delete 4 locations?' });
    expect(dialog).toHaveTextContent('“Café Noir”, “Cash machine”, “Müller Bäckerei” and 1 more disappear from the map for everyone. You can undo this.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(panel.calls).toEqual([]);
    expect(within(bar()).getByText('4 selected')).toBeInTheDocument();

    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete 4 locations' }));
    expect(panel.edits()).toEqual([[{ type: 'LocationsRemoved', ids: ['cafe', 'atm', 'baker', 'books'] }]]);
    expectValidEdits(panel.calls);
    expect(panel.document().locations.map((l) => l.id)).toEqual(['store', 'sushi']);
    expect(notice()).toMatch(/^Deleted 4 locations\. Undo with (Ctrl|⌘)\+Z\.$/);
    expect(announced()).toMatch(/^Deleted 4 locations\./);
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search locations' })).toHaveFocus();

    // In the editor, that call is one undo step, and undo brings every one back.
    const session = new EditorSession({ initial: { document: before, revision: 1n }, save: null });
    session.apply(panel.calls[0]!.edits);
    expect(session.document.locations).toHaveLength(2);
    session.undo();
    expect(session.document.locations.map((l) => l.id).sort()).toEqual(before.locations.map((l) => l.id).sort());
    expect(session.getSnapshot().canUndo).toBe(false);
  });

  it('asks about one location by its title', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    await user.click(box('Café Noir'));
    await user.click(within(bar()).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Café Noir”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete location' }));
    expect(panel.edits()).toEqual([[{ type: 'LocationsRemoved', ids: ['cafe'] }]]);
  });

  it('puts the selection in a group and takes it out, in one call each', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    // Café Noir and the baker are in Food & drink; the ATM is not.
    for (const title of ['Café Noir', 'Cash machine', 'Müller Bäckerei']) await user.click(box(title));
    await user.click(within(bar()).getByRole('button', { name: 'Group' }));
    expect(within(bar()).getByRole('button', { name: 'Group' })).toHaveAttribute('aria-expanded', 'true');
    const groups = within(bar()).getByRole('group', { name: 'Groups of the 3 selected locations' });
    const food = within(groups).getByRole('checkbox', { name: /Food & drink/ });
    expect(food).toHaveAttribute('aria-checked', 'mixed');
    expect(food.closest('label')).toHaveTextContent('2 of 3');

    await user.click(food);
    expect(panel.edits()).toEqual([[updated('atm', { groups: ['services', 'food'] })]]);
    expect(food).toBeChecked();
    expect(notice()).toMatch(/^Added 1 location to “Food & drink”\./);

    await user.click(food);
    expect(panel.edits()[1]).toEqual([updated('cafe', { groups: [] }), updated('atm', { groups: ['services'] }), updated('baker', { groups: [] })]);
    expect(food).not.toBeChecked();
    expect(notice()).toMatch(/^Took 3 locations out of “Food & drink”\./);
    expectValidEdits(panel.calls);

    // Esc closes the choice first (focus back on its button), the next one clears the selection.
    await user.keyboard('{Escape}');
    expect(within(bar()).getByRole('button', { name: 'Group' })).toHaveFocus();
    expect(within(bar()).queryByRole('group')).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search locations' })).toHaveFocus();
  });

  it('moves the selection to another floor in one call, at the same spots', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    await user.click(box('Café Noir'));
    await user.click(box('Storeroom'));
    await user.click(within(bar()).getByRole('button', { name: 'Move to floor' }));
    const floors = within(bar()).getByRole('group', { name: 'Move the 2 selected locations to' });
    expect(within(floors).getByRole('button', { name: /Ground floor/ })).toBeDisabled();
    await user.click(within(floors).getByRole('button', { name: /Level 1/ }));
    expect(panel.edits()).toEqual([[updated('cafe', { layer: 'upper' }), updated('store', { layer: 'upper' })]]);
    expectValidEdits(panel.calls);
    expect(panel.document().locations.find((l) => l.id === 'cafe')).toMatchObject({ layer: 'upper', position: { x: 200, y: 150 } });
    // Gone from this floor's list, still selected: the bar says where they are.
    expect(within(bar()).getByText('2 selected')).toBeInTheDocument();
    expect(within(bar()).getByText('2 outside this list')).toBeInTheDocument();
    expect(notice()).toMatch(/^Moved 2 locations to Level 1\./);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(notice()).toBeUndefined();
  });

  it('offers no floors on a one-floor map, and clears with its button', async () => {
    const user = userEvent.setup();
    const document = mallDocument();
    document.layers = document.layers.slice(0, 1);
    document.locations = document.locations.filter((l) => l.layer === 'ground');
    renderPanel({ document });
    await user.click(box('Café Noir'));
    expect(within(bar()).queryByRole('button', { name: 'Move to floor' })).not.toBeInTheDocument();
    await user.click(within(bar()).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('region', { name: 'Selected locations' })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search locations' })).toHaveFocus();
  });
});
