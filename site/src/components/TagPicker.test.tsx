import type { Tag } from '@marketplace/api-client';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TagPicker } from './TagPicker';

const tag = (id: number, name: string, privileged = false): Tag => ({
  id,
  name,
  link: `/search?tags=${encodeURIComponent(name)}`,
  privileged,
  searchable: true,
  families: [],
});
const TAGS = [
  tag(1, 'Code tools'),
  tag(2, 'Editor'),
  tag(3, 'Languages'),
  tag(4, 'Productivity'),
  tag(5, 'Staff Picks', true),
  tag(6, 'Version Controls'),
];

const getTags = vi.fn((_query: { family?: string }) => Promise.resolve(TAGS));
vi.mock('../lib/api', () => ({ api: { getTags: (query: { family?: string }) => getTags(query) } }));

afterEach(() => {
  cleanup();
  getTags.mockClear();
});

/** The picker in a form that keeps its value, as the upload and manage forms do. */
function Picker(props: { initial?: string[]; max?: number; allowPrivileged?: boolean; required?: boolean }) {
  const [tags, setTags] = useState<string[]>(props.initial ?? []);
  return (
    <form aria-label="Form">
      <TagPicker
        family="intellij"
        value={tags}
        onChange={setTags}
        {...(props.max === undefined ? {} : { max: props.max })}
        allowPrivileged={props.allowPrivileged ?? false}
        required={props.required ?? false}
      />
      <output aria-label="Value">{tags.join('|')}</output>
    </form>
  );
}

async function renderPicker(props: Parameters<typeof Picker>[0] = {}) {
  render(<Picker {...props} />);
  const input = await screen.findByRole('combobox', { name: 'Tags' });
  // The tags have loaded once the placeholder stops saying so.
  await vi.waitFor(() => expect(input.getAttribute('placeholder')).not.toBe('Loading tags…'));
  return input;
}

const value = () => screen.getByLabelText('Value').textContent;
const options = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the tag picker', () => {
  it("lists the catalogue's tags of the family, narrowed as one types, without privileged ones", async () => {
    const input = await renderPicker();
    expect(getTags).toHaveBeenCalledWith({ family: 'intellij' });
    fireEvent.focus(input);
    expect(options()).toEqual(['Code tools', 'Editor', 'Languages', 'Productivity', 'Version Controls']);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    fireEvent.input(input, { target: { value: 'o' } });
    // Those that start with the text first, then those that contain it.
    expect(options()).toEqual(['Code tools', 'Editor', 'Productivity', 'Version Controls']);
    fireEvent.input(input, { target: { value: 'ver' } });
    expect(options()).toEqual(['Version Controls']);
  });

  it('offers privileged tags to administrators', async () => {
    const input = await renderPicker({ allowPrivileged: true });
    fireEvent.input(input, { target: { value: 'staff' } });
    expect(options()).toEqual(['Staff Picks']);
  });

  it('adds with the keyboard: the typed best match on Enter, or the one chosen with the arrows', async () => {
    const input = await renderPicker();
    fireEvent.input(input, { target: { value: 'lang' } });
    expect(input.getAttribute('aria-activedescendant')).toBe(
      screen.getByRole('option', { name: 'Languages' }).id,
    );
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('Languages');
    expect((input as HTMLInputElement).value).toBe('');
    // The list closes once a tag is added (it would cover the form below); ↓ opens it again.
    expect(screen.queryByRole('listbox')).toBeNull();

    // Chosen tags leave the list; the arrows move through what is left, wrapping around.
    fireEvent.focus(input);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { name: 'Editor' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('Languages|Editor|Version Controls');
    expect(screen.queryByRole('option', { name: 'Editor' })).toBeNull();
  });

  it('adds a clicked tag', async () => {
    const input = await renderPicker();
    fireEvent.focus(input);
    fireEvent.mouseDown(screen.getByRole('option', { name: 'Productivity' }));
    expect(value()).toBe('Productivity');
  });

  it('never adds text that is not a known tag, and says so', async () => {
    const input = await renderPicker();
    fireEvent.input(input, { target: { value: 'Nonsense' } });
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('');
    expect(screen.getByRole('alert').textContent).toBe(
      '“Nonsense” is not one of the catalogue’s tags: pick one from the list.',
    );
    // Privileged tags cannot be typed in either.
    fireEvent.input(input, { target: { value: 'Staff Picks' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('');
  });

  it('removes the last tag with Backspace in the empty field, and any tag with its button', async () => {
    const input = await renderPicker({ initial: ['Editor', 'Languages', 'Productivity'] });
    fireEvent.keyDown(input, { key: 'Backspace' });
    expect(value()).toBe('Editor|Languages');
    fireEvent.click(screen.getByRole('button', { name: 'Remove tag Editor' }));
    expect(value()).toBe('Languages');
    expect(document.activeElement).toBe(input);
    // Backspace in a field with text edits the text only.
    fireEvent.input(input, { target: { value: 'Ed' } });
    fireEvent.keyDown(input, { key: 'Backspace' });
    expect(value()).toBe('Languages');
  });

  it('keeps to the most tags allowed', async () => {
    const input = await renderPicker({ initial: ['Editor', 'Languages'], max: 2 });
    expect(input.getAttribute('placeholder')).toBe('2 tags chosen, the most allowed');
    fireEvent.input(input, { target: { value: 'Code' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('Editor|Languages');
    expect(screen.getByRole('alert').textContent).toBe('At most 2 tags: remove one to add another.');
  });

  it('is marked required when the form requires a tag', async () => {
    const input = await renderPicker({ required: true });
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(document.querySelector('label .site-required')?.textContent).toContain('*');
    expect(input.getAttribute('aria-describedby')).toBeTruthy();
  });
});
