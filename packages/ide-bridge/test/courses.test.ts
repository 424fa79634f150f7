import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EduToolsOptions, IdeSimulator, IdeSimulatorOptions } from '@marketplace/ide-simulator';
import { createIdeBridge, idesForCourseLanguage, IdeBridgeError } from '../src/index';
import type { DiscoveredIde, IdeBridge } from '../src/index';
import { freePortBlock, ManualClock, startIdes } from './support';

let base: number;
let clock: ManualClock;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  base = await freePortBlock(12);
  clock = new ManualClock();
});

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function runIde(
  eduTools: EduToolsOptions,
  options: IdeSimulatorOptions = {},
): Promise<{ simulator: IdeSimulator; ide: DiscoveredIde; bridge: IdeBridge }> {
  const started = await startIdes(base, [0], () => ({ now: clock.now, eduTools, ...options }));
  cleanups.push(started.close);
  const bridge = createIdeBridge({
    ports: { start: base },
    permission: false,
    clock,
    probeTimeoutMs: 600_000,
    requestTimeoutMs: 600_000,
  });
  const [ide] = await bridge.findRunningIdes();
  const [simulator] = started.ides;
  if (!ide || !simulator) throw new Error('the simulated IDE was not found');
  simulator.clearRequests();
  return { simulator, ide, bridge };
}

/** The course-related requests, with their time in seconds after the first. */
function timeline(simulator: IdeSimulator): string[] {
  const start = simulator.requests[0]?.at ?? 0;
  return simulator.requests.map((request) => {
    const query = new URLSearchParams(request.query).toString();
    return `${(request.at - start) / 1000}s ${request.path}${query ? '?' + query : ''} ${request.status}`;
  });
}

describe('openCourse', () => {
  it('opens the course at once when EduTools is installed', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: true });
    await bridge.openCourse(ide, 16630);
    expect(timeline(simulator)).toEqual([
      '0s /api/edu/marketplace/info 200',
      '0s /api/edu/marketplace?course_id=16630 200',
    ]);
  });

  it('installs EduTools when missing and re-checks every 5 s until it appears, then opens', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: false, appearsAfterInstallMs: 12_000 });
    await clock.drive(bridge.openCourse(ide, 16630));
    expect(timeline(simulator)).toEqual([
      '0s /api/edu/marketplace/info 404',
      '0s /api/installPlugin?action=install&pluginId=com.jetbrains.edu 200',
      '5s /api/edu/marketplace/info 404',
      '10s /api/edu/marketplace/info 404',
      '15s /api/edu/marketplace/info 200',
      '15s /api/edu/marketplace?course_id=16630 200',
    ]);
  });

  it('gives up after 5 re-checks when EduTools never appears, without opening', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: false, appearsAfterInstallMs: null });
    const error = await clock.drive(bridge.openCourse(ide, 16630).catch((caught: unknown) => caught));
    expect(error).toBeInstanceOf(IdeBridgeError);
    expect(error).toMatchObject({ kind: 'refused' });
    expect((error as Error).message).toContain('has not installed EduTools');
    const lines = timeline(simulator);
    expect(lines.filter((line) => line.includes('/info'))).toHaveLength(6);
    expect(lines.at(-1)).toBe('25s /api/edu/marketplace/info 404');
  });

  it('reports a course the IDE cannot open as refused', async () => {
    const { ide, bridge } = await runIde({ installed: true }, { courseIds: [1] });
    await expect(bridge.openCourse(ide, 2)).rejects.toMatchObject({ kind: 'refused', status: 404 });
  });

  it('rejects a course id that is not a positive whole number', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: true });
    await expect(bridge.openCourse(ide, -1)).rejects.toThrow('A course id is a positive whole number');
    await expect(bridge.openCourse(ide, 1.5)).rejects.toThrow(TypeError);
    expect(simulator.requests).toEqual([]);
  });
});

describe('openLtiCourse', () => {
  it('opens a course launched from an LMS with its launch details', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: true });
    await bridge.openLtiCourse(ide, {
      marketplaceCourseId: 16630,
      launchId: 'launch-7',
      studyItemId: '42',
      lmsDescription: 'Moodle',
    });
    expect(simulator.requests.at(-1)).toMatchObject({
      path: '/api/edu/lti',
      query: {
        marketplace_course_id: '16630',
        launch_id: 'launch-7',
        study_item_id: '42',
        lms_description: 'Moodle',
      },
      status: 200,
    });
  });

  it('leaves out the launch details not given', async () => {
    const { simulator, ide, bridge } = await runIde({ installed: true });
    await bridge.openLtiCourse(ide, { marketplaceCourseId: 3 });
    expect(simulator.requests.at(-1)?.query).toEqual({ marketplace_course_id: '3' });
  });
});

describe('idesForCourseLanguage', () => {
  it('keeps the running IDEs that open courses in the language', async () => {
    const started = await startIdes(base, [0, 1, 2], (offset) => ({
      buildNumber: ['GO-252.1', 'PC-252.2', 'IU-252.3'][offset],
    }));
    cleanups.push(started.close);
    const ides = await createIdeBridge({ ports: { start: base }, permission: false }).findRunningIdes();
    const portsFor = (language: string) =>
      idesForCourseLanguage(language, ides).map((ide) => ide.port - base);
    expect(portsFor('Python')).toEqual([1, 2]);
    expect(portsFor('go')).toEqual([0]);
    expect(portsFor('ObjectiveC')).toEqual([]);
    expect(portsFor('Klingon')).toEqual([]);
  });
});
