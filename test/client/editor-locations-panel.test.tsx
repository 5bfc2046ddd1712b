/**
 * The editor's locations panel, used as a person uses it: the list (search that forgives
 * accents, this floor or all, badges, the cap on big maps, "Add location"), and a location's
 * form. Every edit given to onEdit is asserted exactly and checked against its document; a
 * refused value shows its message and gives no edit.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LIST_LIMIT } from '../../client/src/features/editor/panels/locations-panel';
import { expectValidEdits, location, mallDocument, renderPanel, updated } from './support/editor-panel-harness';

const listItems = () => within(screen.getByRole('list', { name: 'Locations' })).getAllByRole('button');
const itemTitles = () => listItems().map((item) => item.querySelector('.ep-loc-item__title')?.textContent);

describe('the list of locations', () => {
  it('lists this floor, with a count, badges and the floor filter', async () => {
    const user = userEvent.setup();
    renderPanel();
    expect(itemTitles()).toEqual(['Café Noir', 'Cash machine', 'Müller Bäckerei', 'Page Turner Books', 'Storeroom']);
    expect(screen.getByRole('status')).toHaveTextContent('5 locations on Ground floor');
    expect(screen.getByRole('button', { name: /^Storeroom/ })).toHaveTextContent('Hidden');
    expect(screen.getByRole('button', { name: /^Page Turner Books/ })).toHaveTextContent('Not placed');
    // Linked to a region: on the map, though it has no position.
    expect(screen.getByRole('button', { name: /^Cash machine/ })).not.toHaveTextContent('Not placed');

    await user.click(screen.getByRole('button', { name: /1 more location on other floors/ }));
    expect(screen.getByRole('radio', { name: 'All floors' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('6 locations');
    expect(screen.getByRole('button', { name: /^Sakura Sushi/ })).toHaveTextContent('Level 1');

    await user.click(screen.getByRole('radio', { name: 'This floor' }));
    expect(screen.queryByRole('button', { name: /^Sakura Sushi/ })).not.toBeInTheDocument();
  });

  it('finds locations whatever their accents, by title, short text, label and group name', async () => {
    const user = userEvent.setup();
    renderPanel();
    const search = screen.getByRole('searchbox', { name: 'Search locations' });

    await user.type(search, 'cafe');
    await waitFor(() => expect(itemTitles()).toEqual(['Café Noir']));
    expect(screen.getByRole('status')).toHaveTextContent('1 match on Ground floor');

    await user.clear(search);
    await user.type(search, 'MULLER');
    await waitFor(() => expect(itemTitles()).toEqual(['Müller Bäckerei']));

    await user.clear(search);
    await user.type(search, 'pastries');
    await waitFor(() => expect(itemTitles()).toEqual(['Café Noir']));

    await user.clear(search);
    await user.type(search, 'atm');
    await waitFor(() => expect(itemTitles()).toEqual(['Cash machine']));

    // A group's name; the match on the other floor is offered.
    await user.clear(search);
    await user.type(search, 'food drink');
    await waitFor(() => expect(itemTitles()).toEqual(['Café Noir', 'Müller Bäckerei']));
    await user.click(screen.getByRole('button', { name: /1 more match on other floors/ }));
    await waitFor(() => expect(itemTitles()).toEqual(['Café Noir', 'Müller Bäckerei', 'Sakura Sushi']));

    await user.clear(search);
    await user.type(search, 'zzz');
    expect(await screen.findByText('Nothing matches “zzz”.')).toBeInTheDocument();

    // Escape clears the search.
    await user.keyboard('{Escape}');
    expect(search).toHaveValue('');
  });

  it('"Add location" arms the map’s placing tool', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    await user.click(screen.getByRole('button', { name: 'Add location' }));
    expect(panel.onStartAdding).toHaveBeenCalledTimes(1);
    expect(panel.calls).toEqual([]);
  });

  it('shows at most the first 200 matches of a big map, and more on request', async () => {
    const user = userEvent.setup();
    const document = mallDocument();
    document.locations = Array.from({ length: 3_000 }, (_, index) => location({ id: `shop-${index}`, title: `Shop ${index + 1}` }));
    renderPanel({ document });
    expect(listItems()).toHaveLength(LIST_LIMIT);
    expect(itemTitles().slice(0, 3)).toEqual(['Shop 1', 'Shop 2', 'Shop 3']);
    expect(screen.getByText('Showing 200 of 3,000. Refine the search to find the others.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show 200 more' }));
    expect(listItems()).toHaveLength(400);

    await user.type(screen.getByRole('searchbox', { name: 'Search locations' }), 'shop 29');
    // Every number from 1 to 3000 with "29" in it.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('159 matches on Ground floor'));
    expect(screen.queryByText(/^Showing/)).not.toBeInTheDocument();
  });

  it('opens a location from the list, and goes back to it', async () => {
    const user = userEvent.setup();
    const panel = renderPanel();
    await user.click(screen.getByRole('button', { name: /^Müller Bäckerei/ }));
    expect(panel.onSelect).toHaveBeenLastCalledWith('baker');
    const heading = screen.getByRole('heading', { name: 'Müller Bäckerei' });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Müller Bäckerei');

    await user.click(screen.getByRole('button', { name: 'All locations' }));
    expect(panel.onSelect).toHaveBeenLastCalledWith(null);
    expect(screen.getByRole('button', { name: /^Müller Bäckerei/ })).toHaveFocus();

    // From the keyboard: down from the search box into the list, Enter opens.
    await user.click(screen.getByRole('searchbox', { name: 'Search locations' }));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(panel.onSelect).toHaveBeenLastCalledWith('atm');
    expect(panel.calls).toEqual([]);
  });
});

describe('a location’s form', () => {
  it('gives one LocationUpdated per keystroke, coalesced per field, and refuses an empty title', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });
    const title = screen.getByRole('textbox', { name: 'Title' });

    await user.clear(title);
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveValue('');
    expect(panel.calls).toEqual([]);

    await user.type(title, 'Tea');
    expect(screen.queryByText('Title is required')).not.toBeInTheDocument();
    expect(panel.edits()).toEqual([[updated('cafe', { title: 'T' })], [updated('cafe', { title: 'Te' })], [updated('cafe', { title: 'Tea' })]]);
    expect(panel.calls.map((call) => call.options)).toEqual(Array(3).fill({ coalesce: 'location:cafe:title' }));
    // A trailing space changes nothing kept (titles are trimmed): no edit.
    await user.type(title, ' ');
    expect(panel.calls).toHaveLength(3);
    expect(title).toHaveValue('Tea ');
    await user.tab();
    expect(title).toHaveValue('Tea');
    expect(panel.document().locations.find((l) => l.id === 'cafe')?.title).toBe('Tea');
    expect(screen.getByRole('heading', { name: 'Tea' })).toBeInTheDocument();
    expectValidEdits(panel.calls);
  });

  it('refuses a javascript: link and keeps the draft; an empty link is none', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });
    const link = screen.getByRole('textbox', { name: 'Link' });

    await user.click(link);
    await user.paste('javascript:alert(1)');
    expect(screen.getByText('Link must be an http(s) address or an uploaded file')).toBeInTheDocument();
    expect(link).toHaveValue('javascript:alert(1)');
    expect(link).toHaveAccessibleDescription('Link must be an http(s) address or an uploaded file');
    await user.tab();
    expect(link).toHaveValue('javascript:alert(1)');
    expect(panel.calls).toEqual([]);

    await user.clear(link);
    await user.paste('https://cafe.example/menu');
    expect(panel.edits()).toEqual([[updated('cafe', { link: 'https://cafe.example/menu' })]]);
    expect(panel.calls[0]!.options).toEqual({ coalesce: 'location:cafe:link' });

    await user.clear(link);
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { link: null })]);

    const image = screen.getByRole('textbox', { name: 'Image URL' });
    await user.click(image);
    await user.paste('/files/abc123');
    const thumbnail = screen.getByRole('textbox', { name: 'Thumbnail URL' });
    await user.click(thumbnail);
    await user.paste('data:image/png;base64,AAAA');
    expect(screen.getByText('Thumbnail URL must be an http(s) address or an uploaded file')).toBeInTheDocument();
    expect(panel.edits().slice(2)).toEqual([[updated('cafe', { image: '/files/abc123' })]]);
    expectValidEdits(panel.calls);
  });

  it('refuses an over-long label, and takes the short text, phone and hours', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });
    const label = screen.getByRole('textbox', { name: 'Label' });
    await user.clear(label);
    await user.paste('x'.repeat(61));
    expect(screen.getByText('Label must be at most 60 characters')).toBeInTheDocument();
    expect(label).toHaveValue('x'.repeat(61));
    expect(panel.edits()).toEqual([[updated('cafe', { label: '' })]]);

    await user.type(label, '{Backspace}');
    expect(screen.queryByText('Label must be at most 60 characters')).not.toBeInTheDocument();
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { label: 'x'.repeat(60) })]);

    await user.type(screen.getByRole('textbox', { name: 'Short text' }), '!');
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '5');
    await user.type(screen.getByRole('textbox', { name: 'Opening hours' }), '9');
    expect(panel.calls.slice(2).map((call) => [call.edits, call.options])).toEqual([
      [[updated('cafe', { about: 'Espresso and pastries!' })], { coalesce: 'location:cafe:about' }],
      [[updated('cafe', { phone: '5' })], { coalesce: 'location:cafe:phone' }],
      [[updated('cafe', { hours: '9' })], { coalesce: 'location:cafe:hours' }],
    ]);
    expectValidEdits(panel.calls);
  });

  it('sets the marker, floor, groups, colour and hidden', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Marker' }), 'Text label');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Floor' }), 'Level 1');
    const groups = screen.getByRole('group', { name: 'Groups' });
    await user.click(within(groups).getByRole('checkbox', { name: 'Shops' }));
    await user.click(within(groups).getByRole('checkbox', { name: 'Food & drink' }));
    await user.click(screen.getByRole('switch', { name: 'Hidden from visitors' }));
    expect(panel.edits()).toEqual([
      [updated('cafe', { marker: 'label' })],
      [updated('cafe', { layer: 'upper' })],
      [updated('cafe', { groups: ['food', 'shops'] })],
      [updated('cafe', { groups: ['shops'] })],
      [updated('cafe', { hidden: true })],
    ]);
    expect(panel.calls.every((call) => call.options === undefined)).toBe(true);
    expect(screen.getByRole('switch', { name: 'Hidden from visitors' })).toBeChecked();

    // Own colour starts from the group's; a colour code is checked; back to the group's.
    await user.click(screen.getByRole('radio', { name: 'Own colour' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { color: '#2563eb' })]);
    const code = screen.getByRole('textbox', { name: 'Colour code' });
    expect(code).toHaveValue('#2563eb');
    await user.clear(code);
    await user.type(code, '#12345');
    expect(screen.getByText('Colour must be a colour like #4f46e5')).toBeInTheDocument();
    const before = panel.calls.length;
    await user.type(code, '6');
    expect(panel.calls).toHaveLength(before + 1);
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { color: '#123456' })]);
    expect(panel.calls.at(-1)!.options).toEqual({ coalesce: 'location:cafe:color' });
    await user.click(screen.getByRole('radio', { name: /Group’s colour/ }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { color: null })]);
    expect(screen.queryByRole('textbox', { name: 'Colour code' })).not.toBeInTheDocument();
    expectValidEdits(panel.calls);
  });

  it('takes a zoom level (empty: none) and refuses what is not one', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });
    const zoom = screen.getByRole('textbox', { name: 'Zoom level' });
    await user.type(zoom, '2.5');
    // "2", then "2." (still 2: no edit), then "2.5".
    expect(panel.edits()).toEqual([[updated('cafe', { zoom: 2 })], [updated('cafe', { zoom: 2.5 })]]);
    await user.type(zoom, 'x');
    expect(screen.getByText('Zoom level must be a number, like 2 or 1.5')).toBeInTheDocument();
    await user.clear(zoom);
    await user.type(zoom, '100');
    expect(screen.getByText('Zoom level must be between 0.1 and 64')).toBeInTheDocument();
    await user.clear(zoom);
    expect(panel.edits()).toEqual([
      [updated('cafe', { zoom: 2 })],
      [updated('cafe', { zoom: 2.5 })],
      [updated('cafe', { zoom: null })],
      [updated('cafe', { zoom: 1 })],
      [updated('cafe', { zoom: 10 })],
      [updated('cafe', { zoom: null })],
    ]);
    expect(panel.calls.every((call) => call.options?.coalesce === 'location:cafe:zoom')).toBe(true);
    expectValidEdits(panel.calls);
  });

  it('edits or unlinks the SVG region, and takes the location off the map', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'atm' });
    expect(screen.getByText('Its region on the floor plan')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove from map' })).not.toBeInTheDocument();
    const region = screen.getByRole('textbox', { name: 'Region id' });
    expect(region).toHaveValue('atm_1');
    await user.clear(region);
    expect(screen.getByText('Region id is required (or unlink the region)')).toBeInTheDocument();
    await user.type(region, '9');
    expect(screen.getByText('Region id must be an SVG element id')).toBeInTheDocument();
    await user.clear(region);
    await user.type(region, 'a');
    expect(panel.edits()).toEqual([[updated('atm', { element: 'a' })]]);
    expect(panel.calls[0]!.options).toEqual({ coalesce: 'location:atm:element' });

    await user.click(screen.getByRole('button', { name: 'Unlink region' }));
    expect(panel.edits().at(-1)).toEqual([updated('atm', { element: null })]);
    expect(screen.queryByRole('textbox', { name: 'Region id' })).not.toBeInTheDocument();
    expect(screen.getByText('Not placed on the map')).toBeInTheDocument();
    expectValidEdits(panel.calls);

    await user.click(screen.getByRole('button', { name: 'All locations' }));
    await user.click(screen.getByRole('button', { name: /^Café Noir/ }));
    expect(screen.getByText('x 200, y 150')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove from map' }));
    expect(panel.edits().at(-1)).toEqual([updated('cafe', { position: null })]);
    expect(screen.getByText('Not placed on the map')).toBeInTheDocument();
    expectValidEdits(panel.calls);
  });

  it('says how a geocoded location was placed, until it is placed by hand (issue 29 item 3)', () => {
    const geocoded = mallDocument();
    geocoded.locations = geocoded.locations.map((l) => (l.id === 'cafe' ? { ...l, precision: 'city' as const } : l.id === 'baker' ? { ...l, precision: 'exact' as const } : l));
    renderPanel({ document: geocoded, selectedId: 'cafe' });
    expect(screen.getByRole('note')).toHaveTextContent('Placed at the middle of its city, from its address. Move it on the map (or type its latitude and longitude) to put it exactly where it is.');
    cleanup();
    renderPanel({ document: geocoded, selectedId: 'baker' });
    expect(screen.getByText('x 400, y 150')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('deletes a location after confirmation, and goes back to the list', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'baker' });
    await user.click(screen.getByRole('button', { name: 'Delete location' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Müller Bäckerei”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(panel.calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete location' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete location' }));
    expect(panel.edits()).toEqual([[{ type: 'LocationRemoved', id: 'baker' }]]);
    expectValidEdits(panel.calls);
    expect(panel.onSelect).toHaveBeenLastCalledWith(null);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(itemTitles()).not.toContain('Müller Bäckerei');
    expect(screen.getByRole('searchbox', { name: 'Search locations' })).toHaveFocus();
  });

  it('shows a collaborator’s change, except in the field being typed in', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ selectedId: 'cafe' });
    const title = screen.getByRole('textbox', { name: 'Title' });
    const phone = screen.getByRole('textbox', { name: 'Phone' });

    panel.collaborator(updated('cafe', { title: 'Café Blanc', phone: '+1 555' }));
    expect(title).toHaveValue('Café Blanc');
    expect(phone).toHaveValue('+1 555');

    await user.click(title);
    await user.type(title, '!');
    panel.collaborator(updated('cafe', { title: 'Someone else', phone: '+1 556' }));
    expect(title).toHaveValue('Café Blanc!');
    expect(phone).toHaveValue('+1 556');
    // Leaving the field shows the title as the document has it now.
    await user.tab();
    expect(title).toHaveValue('Someone else');
    expect(panel.edits()).toEqual([[updated('cafe', { title: 'Café Blanc!' })]]);
    expectValidEdits(panel.calls);
  });
});
