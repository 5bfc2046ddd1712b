/**
 * The editor's groups panel, used as a person uses it (by role and label) inside a stand-in for
 * the editor: the exact edits it gives, each valid against its document, and names or colours
 * the document's schema refuses shown in place without any edit.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Location, type MapDocument } from '../../events/map-document';
import { GROUP_PALETTE, GroupsPanel } from '../../client/src/features/editor/panels/groups-panel';
import { documentWith, expectValidEdits, renderPanel } from './support/panel-harness';

function mall(): MapDocument {
  return documentWith(() => ({
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
      { id: 'toilets', name: 'Toilets', color: '#0d9488', legend: false },
    ],
    locations: [
      Location.parse({ id: 'cafe', title: 'Café Noir', layer: 'ground', groups: ['food'] }),
      Location.parse({ id: 'sushi', title: 'Sakura Sushi', layer: 'ground', groups: ['food', 'shops'] }),
      Location.parse({ id: 'bank', title: 'Bank', layer: 'ground' }),
    ],
  }));
}

const renderGroups = (document = mall()) => renderPanel((doc, onEdit) => <GroupsPanel document={doc} onEdit={onEdit} />, document);

const row = (name: string) => screen.getByRole('textbox', { name: `Name of ${name}` }).closest('li')!;

describe('the groups panel', () => {
  it('lists each group with its colour, name, legend flag and how many locations it holds', () => {
    renderGroups();
    const rows = within(screen.getByRole('list', { name: 'Groups' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByRole('textbox', { name: 'Name of Food & drink' })).toHaveValue('Food & drink');
    expect(within(rows[0]!).getByLabelText('Colour of Food & drink')).toHaveValue('#ea580c');
    expect(within(rows[0]!).getByRole('textbox', { name: 'Colour of Food & drink, hex code' })).toHaveValue('#ea580c');
    expect(rows[0]).toHaveTextContent('2 locations');
    expect(rows[1]).toHaveTextContent('1 location');
    expect(rows[2]).toHaveTextContent('0 locations');
    expect(within(rows[0]!).getByRole('checkbox', { name: 'Show in legend' })).toBeChecked();
    expect(within(rows[2]!).getByRole('checkbox', { name: 'Show in legend' })).not.toBeChecked();
    // The checkbox says which group it is about.
    expect(within(rows[2]!).getByRole('checkbox', { name: 'Show in legend' })).toHaveAccessibleDescription('Toilets');
    expect(screen.getByRole('button', { name: 'Delete Shops' })).toBeInTheDocument();
  });

  it('says when there are no groups yet', () => {
    renderGroups(documentWith());
    expect(screen.getByText(/No groups yet/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Groups' })).not.toBeInTheDocument();
  });

  it('adds groups named in turn with the palette’s colours, focusing the new name', async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderGroups(documentWith());
    await user.click(screen.getByRole('button', { name: '+ Add group' }));
    expect(edits()).toEqual([[{ type: 'GroupAdded', group: { id: expect.stringMatching(/^group-[A-Za-z0-9]+$/), name: 'Group 1', color: GROUP_PALETTE[0], legend: true } }]]);
    const name = screen.getByRole('textbox', { name: 'Name of Group 1' });
    expect(name).toHaveFocus();
    // The name is selected: typing replaces it.
    await user.keyboard('Parking');
    expect(document().groups[0]!.name).toBe('Parking');

    for (let i = 0; i < GROUP_PALETTE.length; i++) await user.click(screen.getByRole('button', { name: '+ Add group' }));
    const colors = document().groups.map((group) => group.color);
    // Ten different colours, then the palette again from the start.
    expect(colors.slice(0, GROUP_PALETTE.length)).toEqual([...GROUP_PALETTE]);
    expect(colors[GROUP_PALETTE.length]).toBe(GROUP_PALETTE[0]);
    expect(document().groups.map((group) => group.name).slice(1, 3)).toEqual(['Group 2', 'Group 3']);
    expectValidEdits(calls);
  });

  it('skips the palette colours other groups have already', async () => {
    const user = userEvent.setup();
    const { edits } = renderGroups(documentWith(() => ({ groups: [{ id: 'a', name: 'A', color: GROUP_PALETTE[1], legend: true }] })));
    await user.click(screen.getByRole('button', { name: '+ Add group' }));
    expect(edits()[0]).toEqual([{ type: 'GroupAdded', group: expect.objectContaining({ name: 'Group 2', color: GROUP_PALETTE[2] }) }]);
  });

  it('renames a group as coalesced edits, refusing an empty or too long name without an edit', async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderGroups();
    const name = screen.getByRole('textbox', { name: 'Name of Shops' });
    await user.clear(name);
    expect(calls).toEqual([]);
    expect(name).toHaveValue('');
    expect(name).toHaveAccessibleDescription('Name is required');

    await user.type(name, 'Fashion');
    expect(edits()).toHaveLength(7);
    expect(edits().at(-1)).toEqual([{ type: 'GroupUpdated', id: 'shops', changes: { name: 'Fashion' } }]);
    expect(calls.every((call) => call.options?.coalesce === 'group:shops:name')).toBe(true);
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();

    fireEvent.change(name, { target: { value: 'y'.repeat(101) } });
    expect(screen.getByText('Name must be at most 100 characters')).toBeInTheDocument();
    expect(name).toHaveValue('y'.repeat(101));
    expect(calls).toHaveLength(7);
    expect(document().groups[1]!.name).toBe('Fashion');
    expectValidEdits(calls);
  });

  it('recolours a group with the colour picker, the hex code following', () => {
    const { calls, edits } = renderGroups();
    fireEvent.change(screen.getByLabelText('Colour of Shops'), { target: { value: '#0ea5e9' } });
    fireEvent.change(screen.getByLabelText('Colour of Shops'), { target: { value: '#0284c7' } });
    expect(edits()).toEqual([
      [{ type: 'GroupUpdated', id: 'shops', changes: { color: '#0ea5e9' } }],
      [{ type: 'GroupUpdated', id: 'shops', changes: { color: '#0284c7' } }],
    ]);
    // Dragging in the picker is one undo step.
    expect(calls.map((call) => call.options)).toEqual([{ coalesce: 'group:shops:color' }, { coalesce: 'group:shops:color' }]);
    expect(screen.getByRole('textbox', { name: 'Colour of Shops, hex code' })).toHaveValue('#0284c7');
    expectValidEdits(calls);
  });

  it('recolours a group by its typed hex code, lowercased, with or without the #', async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderGroups();
    const hex = screen.getByRole('textbox', { name: 'Colour of Shops, hex code' });
    await user.clear(hex);
    await user.type(hex, '#12AB9F');
    // Only the whole code is a colour: one edit.
    expect(edits()).toEqual([[{ type: 'GroupUpdated', id: 'shops', changes: { color: '#12ab9f' } }]]);
    expect(calls[0]!.options).toEqual({ coalesce: 'group:shops:color' });
    await user.tab();
    expect(hex).toHaveValue('#12ab9f');
    expect(screen.getByLabelText('Colour of Shops')).toHaveValue('#12ab9f');

    await user.clear(hex);
    await user.type(hex, 'ff0000{Enter}');
    expect(document().groups[1]!.color).toBe('#ff0000');
    expectValidEdits(calls);
  });

  it('shows the schema’s message for a bad colour, keeps the draft and gives no edit', async () => {
    const user = userEvent.setup();
    const { calls, document } = renderGroups();
    const hex = screen.getByRole('textbox', { name: 'Colour of Shops, hex code' });
    await user.clear(hex);
    await user.type(hex, 'blue');
    await user.tab();
    expect(screen.getByText('Colour of Shops must be a colour like #4f46e5')).toBeInTheDocument();
    expect(hex).toHaveValue('blue');
    expect(hex).toHaveAttribute('aria-invalid', 'true');
    expect(hex).toHaveAccessibleDescription('Colour of Shops must be a colour like #4f46e5');
    expect(calls).toEqual([]);
    expect(document().groups[1]!.color).toBe('#2563eb');

    // Fixing it takes the message away and gives the colour.
    await user.clear(hex);
    await user.type(hex, '#00ff00');
    expect(screen.queryByText(/must be a colour like/)).not.toBeInTheDocument();
    expect(document().groups[1]!.color).toBe('#00ff00');
  });

  it('turns the legend off and on for one group', async () => {
    const user = userEvent.setup();
    const { calls, edits } = renderGroups();
    await user.click(within(row('Food & drink')).getByRole('checkbox', { name: 'Show in legend' }));
    await user.click(within(row('Toilets')).getByRole('checkbox', { name: 'Show in legend' }));
    expect(edits()).toEqual([
      [{ type: 'GroupUpdated', id: 'food', changes: { legend: false } }],
      [{ type: 'GroupUpdated', id: 'toilets', changes: { legend: true } }],
    ]);
    expect(calls.map((call) => call.options)).toEqual([undefined, undefined]);
    expect(within(row('Food & drink')).getByRole('checkbox', { name: 'Show in legend' })).not.toBeChecked();
    expectValidEdits(calls);
  });

  it('deletes a group after saying its locations stay and only lose the category', async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderGroups();
    await user.click(screen.getByRole('button', { name: 'Delete Food & drink' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Food & drink?' });
    expect(dialog).toHaveTextContent('Its 2 locations stay on the map and only lose this category. You can undo this.');
    // Escape cancels without an edit.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Food & drink' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete group' }));
    expect(edits()).toEqual([[{ type: 'GroupRemoved', id: 'food' }]]);
    expect(document().groups.map((group) => group.id)).toEqual(['shops', 'toilets']);
    expect(document().locations.map((location) => [location.id, location.groups])).toEqual([
      ['cafe', []],
      ['sushi', ['shops']],
      ['bank', []],
    ]);
    expectValidEdits(calls);
  });

  it('says when a group to delete holds no location', async () => {
    const user = userEvent.setup();
    renderGroups();
    await user.click(screen.getByRole('button', { name: 'Delete Toilets' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('No location is in this group.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
  });

  it("follows a collaborator's changes: a new name and colour, and a group deleted while its dialog is open", async () => {
    const user = userEvent.setup();
    const { calls, collaborator } = renderGroups();
    collaborator({ type: 'GroupUpdated', id: 'shops', changes: { name: 'Fashion', color: '#7c3aed' } });
    expect(screen.getByRole('textbox', { name: 'Name of Fashion' })).toHaveValue('Fashion');
    expect(screen.getByRole('textbox', { name: 'Colour of Fashion, hex code' })).toHaveValue('#7c3aed');

    await user.click(screen.getByRole('button', { name: 'Delete Fashion' }));
    collaborator({ type: 'GroupRemoved', id: 'shops' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);
  });
});
