import type { Plugin, PluginLifecycle, Tag } from '@marketplace/api-client';
import { ToastProvider } from '@marketplace/ui';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import NewPluginPage from './NewPluginPage';

vi.mock('../../auth/AuthProvider', () => ({
  useAuth: () => ({
    user: { id: 1, name: 'Dev', login: 'dev', email: null, banned: false, isAdmin: false },
    available: true,
    signIn: () => Promise.resolve(),
    signOut: () => Promise.resolve(),
  }),
}));

const TAGS: Tag[] = ['Editor', 'Languages', 'Testing'].map((name, index) => ({
  id: index + 1,
  name,
  link: '',
  privileged: false,
  searchable: true,
  families: [],
}));

const DRAFT: PluginLifecycle = {
  lifecycleState: 'draft',
  approved: false,
  blockState: 'none',
  modificationAllowed: true,
  hidden: false,
  pendingVersions: 1,
  versions: 1,
};
let lifecycle: PluginLifecycle = DRAFT;

const uploadNewPlugin = vi.fn((_family: string, _input: { tags?: readonly string[] }) =>
  Promise.resolve({
    ok: true,
    result: { errors: [], warnings: [], isErrorUnknown: false },
    data: { id: 42, name: 'Lens', update: { version: '1.0.0' } },
  }),
);
const request = vi.fn((_call: { method: string; path: string }) => {
  lifecycle = { ...lifecycle, lifecycleState: 'published' };
  return Promise.resolve({ kind: 'json', data: {} });
});
vi.mock('../../lib/api', () => ({
  api: {
    getTags: () => Promise.resolve(TAGS),
    uploadNewPlugin: (family: string, input: { tags?: readonly string[] }) => uploadNewPlugin(family, input),
    getPlugin: (id: number) =>
      Promise.resolve({ id, info: { name: 'Lens', family: 'intellij' }, lifecycle } as unknown as Plugin),
    request: (call: { method: string; path: string }) => request(call),
  },
}));

afterEach(() => {
  cleanup();
  uploadNewPlugin.mockClear();
  request.mockClear();
  lifecycle = DRAFT;
});

function renderPage() {
  render(
    <ToastProvider>
      <MemoryRouter>
        <NewPluginPage />
      </MemoryRouter>
    </ToastProvider>,
  );
}

async function chooseTag(name: string) {
  const input = screen.getByRole('combobox', { name: 'Tags' });
  fireEvent.input(input, { target: { value: name } });
  fireEvent.mouseDown(await screen.findByRole('option', { name }));
}

describe('the upload page', () => {
  it('marks the required fields before anything is sent', async () => {
    renderPage();
    // The label reads "Plugin archive *"; the star is hidden from assistive technology, which reads aria-required.
    for (const label of ['Family', 'Plugin archive', 'License URL']) {
      const field = await screen.findByLabelText(`${label} *`);
      expect(field.getAttribute('aria-required')).toBe('true');
      expect(field.hasAttribute('required')).toBe(true);
    }
    expect(screen.getByRole('combobox', { name: 'Tags' }).getAttribute('aria-required')).toBe('true');
    expect(document.querySelectorAll('form .site-required')).toHaveLength(5); // four stars and the note's
    expect(screen.getByText('Required')).toBeTruthy();
  });

  it('asks for a tag before uploading, sends the chosen tags, then offers to publish the draft', async () => {
    renderPage();
    const file = new File(['PK'], 'lens.jar', { type: 'application/java-archive' });
    fireEvent.change(await screen.findByLabelText('Plugin archive *'), { target: { files: [file] } });
    fireEvent.input(screen.getByRole('textbox', { name: 'License URL' }), {
      target: { value: 'https://example.com/license' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Upload plugin' }));
    expect(await screen.findByText('Choose at least one tag.')).toBeTruthy();
    expect(uploadNewPlugin).not.toHaveBeenCalled();

    await chooseTag('Languages');
    await chooseTag('Editor');
    fireEvent.click(screen.getByRole('button', { name: 'Upload plugin' }));
    const status = await screen.findByRole('region', { name: 'Status' });
    expect(uploadNewPlugin).toHaveBeenCalledWith(
      'intellij',
      expect.objectContaining({ licenseUrl: 'https://example.com/license', tags: ['Languages', 'Editor'] }),
    );
    // The first upload makes a draft: the page says so, with the next step right there.
    expect(screen.getByText('Version 1.0.0 is uploaded')).toBeTruthy();
    expect(within(status).getByText('Draft')).toBeTruthy();
    expect(
      within(status).getByText(
        'Not visible to anyone else yet. Publish it to send it to the administrators for approval.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage the plugin' }).getAttribute('href')).toBe(
      '/dashboard/plugin/42',
    );
    expect(within(status).queryByRole('button', { name: 'Request removal' })).toBeNull();

    fireEvent.click(within(status).getByRole('button', { name: 'Publish' }));
    expect(await within(status).findByText('Waiting for approval')).toBeTruthy();
    expect(request).toHaveBeenCalledWith(
      expect.objectContaining({ method: 'POST', path: '/api/plugins/42/publish' }),
    );
    expect(within(status).queryByRole('button', { name: 'Publish' })).toBeNull();
  });
});
