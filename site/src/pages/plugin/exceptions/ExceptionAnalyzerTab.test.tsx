import type {
  ExceptionGroup,
  ExceptionGroupDetail,
  ExceptionGroupPage,
  ExceptionGroupsInput,
  ExceptionStatusChange,
  Plugin,
} from '@marketplace/api-client';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ExceptionAnalyzerTab from './ExceptionAnalyzerTab';

const listGroups = vi.fn<(pluginId: number, input: ExceptionGroupsInput) => Promise<ExceptionGroupPage>>();
const getGroup = vi.fn<(pluginId: number, groupId: number) => Promise<ExceptionGroupDetail>>();
const setStatus =
  vi.fn<(pluginId: number, groupId: number, change: ExceptionStatusChange) => Promise<ExceptionGroup>>();
const getVersions = vi.fn<() => Promise<{ data: { version: string }[] }>>();
vi.mock('../../../lib/api', () => ({
  api: {
    exceptions: {
      listGroups: (pluginId: number, input: ExceptionGroupsInput) => listGroups(pluginId, input),
      getGroup: (pluginId: number, groupId: number) => getGroup(pluginId, groupId),
      setStatus: (pluginId: number, groupId: number, change: ExceptionStatusChange) =>
        setStatus(pluginId, groupId, change),
    },
    getVersions: () => getVersions(),
  },
}));

const PLUGIN = { id: 7, info: { id: 7, name: 'Tool', xmlId: 'com.example.tool' } } as unknown as Plugin;

const SUMMARY: ExceptionGroup = {
  id: 3,
  exceptionClass: 'java.lang.IllegalStateException',
  message: 'Cannot read <script>alert(1)</script>',
  status: 'new',
  fixedInVersion: null,
  statusNote: '',
  statusChangedAt: null,
  firstSeen: Date.UTC(2026, 0, 5),
  lastSeen: Date.UTC(2026, 1, 9),
  total: 120,
  recent: 17,
  installations: 40,
  versions: ['2.1.0', '2.0.1', '2.0.0', '1.9.0'],
};

const DETAIL: ExceptionGroupDetail = {
  ...SUMMARY,
  status: 'new',
  statusNote: 'Reopened: a report came from version 2.1.0, later than 2.0.1 where it was marked fixed.',
  statusChangedAt: Date.UTC(2026, 1, 9),
  normalisedTrace: 'java.lang.IllegalStateException\nat com.example.tool.Reader.read',
  pluginPackage: 'com.example',
  latest: {
    id: 9001,
    receivedAt: Date.UTC(2026, 1, 9),
    pluginVersion: '2.1.0',
    build: 'IU-241.14494.240',
    productName: 'IntelliJ IDEA 2024.1',
    os: 'macOS 14.4.1 (aarch64)',
    java: '21.0.2 (JetBrains s.r.o.)',
    message: 'Cannot read',
    stackTrace:
      'java.lang.IllegalStateException: <img src=x onerror=alert(1)>\n\tat com.example.tool.Reader.read(Reader.kt:4)',
    lastAction: 'Tool.Run',
    attachmentNames: ['build.gradle'],
    automatic: false,
  },
  environment: {
    versions: [{ value: '2.1.0', reports: 70 }],
    builds: [{ value: 'IU-241.14494.240', reports: 100 }],
    operatingSystems: [{ value: 'macOS 14.4.1 (aarch64)', reports: 120 }],
    javaVersions: [],
  },
  comments: [
    {
      reportId: 9000,
      receivedAt: Date.UTC(2026, 1, 8),
      pluginVersion: '2.1.0',
      build: 'IU-241.1',
      text: 'It <b>broke</b>',
    },
  ],
  storedReports: 50,
};

let location = '';
function Where() {
  const here = useLocation();
  location = `${here.pathname}${here.search}`;
  return null;
}

function renderTab(search = '') {
  return render(
    <MemoryRouter initialEntries={[`/plugin/7-tool/exception-analyzer${search}`]}>
      <Routes>
        <Route
          path="/plugin/:item/:tab"
          element={
            <>
              <ExceptionAnalyzerTab plugin={PLUGIN} />
              <Where />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  listGroups.mockResolvedValue({ recentDays: 30, total: 1, groups: [SUMMARY] });
  getGroup.mockResolvedValue(DETAIL);
  getVersions.mockResolvedValue({ data: [{ version: '2.1.0' }, { version: '2.2.0' }, { version: '2.0.1' }] });
  setStatus.mockImplementation((_plugin, _group, change) =>
    Promise.resolve({ ...SUMMARY, status: change.status, fixedInVersion: change.fixedInVersion ?? null }),
  );
});

afterEach(() => {
  cleanup();
  vi.resetAllMocks();
});

describe('the exception analyzer tab', () => {
  it('lists groups with their counts, dates, versions and status, and opens one by the address', async () => {
    renderTab();
    const row = (await screen.findByRole('link', { name: 'IllegalStateException' })).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'IllegalStateExceptionCannot read <script>alert(1)</script>',
      '17',
      '120',
      '05.01.2026',
      '09.02.2026',
      '2.1.0, 2.0.1, 2.0.0 and 1 more',
      'New',
    ]);
    expect(document.querySelector('script')).toBeNull();
    expect(listGroups).toHaveBeenCalledWith(7, { page: 1, size: 20, status: undefined });

    fireEvent.click(within(row).getByRole('link', { name: 'IllegalStateException' }));
    await screen.findByRole('heading', { name: /java\.lang\.IllegalStateException/ });
    expect(location).toBe('/plugin/7-tool/exception-analyzer?group=3');
    expect(getGroup).toHaveBeenCalledWith(7, 3);
  });

  it('shows a group’s whole trace as text, its environment, comments and why it reopened', async () => {
    renderTab('?group=3');
    const trace = await screen.findByLabelText('Stack trace');
    expect(trace.tagName).toBe('PRE');
    expect(trace.textContent).toBe(DETAIL.latest!.stackTrace);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('note').textContent).toContain('Reopened: a report came from version 2.1.0');
    const builds = screen.getByRole('table', { name: 'IDE builds' });
    expect(within(builds).getByRole('cell', { name: 'IU-241.14494.240' })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Java runtimes' })).getByText('Not told')).toBeTruthy();
    expect(screen.getByText('It <b>broke</b>')).toBeTruthy();
    expect(document.querySelector('article b')).toBeNull();
  });

  it('marks a group fixed in one of the plugin’s versions, newest offered first', async () => {
    renderTab('?group=3');
    const status = await screen.findByLabelText('Status');
    fireEvent.change(status, { target: { value: 'fixed' } });
    const version = (await screen.findByLabelText('in version')) as HTMLSelectElement;
    await waitFor(() =>
      expect([...version.options].map((option) => option.value)).toEqual([
        '2.2.0',
        '2.1.0',
        '2.0.1',
        '2.0.0',
        '1.9.0',
      ]),
    );
    fireEvent.change(version, { target: { value: '2.1.0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save status' }));
    await waitFor(() =>
      expect(setStatus).toHaveBeenCalledWith(7, 3, { status: 'fixed', fixedInVersion: '2.1.0' }),
    );
    await waitFor(() => expect(getGroup).toHaveBeenCalledTimes(2));
  });

  it('tells how to point the plugin’s reporter here when nothing has arrived', async () => {
    listGroups.mockResolvedValue({ recentDays: 30, total: 0, groups: [] });
    renderTab();
    const howTo = await screen.findByRole('note', { name: 'How to receive error reports' });
    expect(howTo.textContent).toContain(
      'class Reporter : ITNReporter("http://localhost:8080/trackerRpc/idea/createScr")',
    );
  });

  it('says so when the groups cannot be read', async () => {
    listGroups.mockRejectedValue(
      new Error('Only the developers of this item and administrators can do this.'),
    );
    renderTab();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Only the developers of this item and administrators can do this.',
    );
  });
});
