// The command behind `pnpm ide-simulator`: starts one IDE stand-in, or several on consecutive ports, and
// prints the requests they receive until stopped with Ctrl+C.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { CONFIRMATIONS_PATH, startIdeSimulator } from './simulator';
import type { IdeSimulator } from './simulator';
import { DEFAULT_BUILD_NUMBER, DEFAULT_IDE_NAME } from './options';
import type { EduToolsOptions, IdeSimulatorOptions, UntrustedOriginPolicy } from './options';

const USAGE = `Usage: pnpm ide-simulator [options]

Starts stand-ins for the IDE's built-in web server on 127.0.0.1. Repeat --name and --build to start
several IDEs on consecutive ports (a single --name or --build is shared by all of them).

  --port <n>                 first port (default 63342)
  --name <text>              IDE name (default "${DEFAULT_IDE_NAME}")
  --build <number>           build number with product code (default ${DEFAULT_BUILD_NUMBER})
  --count <n>                number of IDEs when --name/--build are not repeated (default 1)
  --plugin <id>[=false]      a plugin id the IDEs know; "=false" makes it incompatible (repeatable)
  --trusted-host <host>      a host trusted like -Didea.api.install.hosts.trusted (repeatable)
  --untrusted-origins <p>    how the IDE's "trust this host?" question about a page it does not trust is
                             answered: ask (default, like the real IDE: the request waits until you type
                             y or n here, or POST ${CONFIRMATIONS_PATH}?answer=yes|no), accept (yes at
                             once) or refuse (no at once: HTTP 403)
  --edutools <state>         installed, missing (appears after an install), or never (install cancelled)
  --edutools-delay <ms>      how long EduTools takes to appear after an install request (default 3000)
  --course <id>              a course id EduTools can open (repeatable; default: every id)
  --rate-limit <n|off>       requests a minute per address before 429 (default 30)
  --install-duration <ms>    how long an install keeps the IDE busy (default 2000)
  --quiet                    do not print requests
  --help                     show this text
`;

function fail(message: string): never {
  console.error(`ide-simulator: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function integerArgument(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) fail(`${name} must be a whole number, got "${value}".`);
  return Number(value);
}

function parseCommandLine(argv: string[]): IdeSimulatorOptions[] {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      options: {
        port: { type: 'string' },
        name: { type: 'string', multiple: true },
        build: { type: 'string', multiple: true },
        count: { type: 'string' },
        plugin: { type: 'string', multiple: true },
        'trusted-host': { type: 'string', multiple: true },
        'untrusted-origins': { type: 'string' },
        edutools: { type: 'string' },
        'edutools-delay': { type: 'string' },
        course: { type: 'string', multiple: true },
        'rate-limit': { type: 'string' },
        'install-duration': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }

  const names = parsed.name ?? [DEFAULT_IDE_NAME];
  const builds = parsed.build ?? [DEFAULT_BUILD_NUMBER];
  const count = integerArgument(parsed.count, '--count') ?? Math.max(names.length, builds.length);
  if (count < 1) fail('--count must be at least 1.');
  for (const [list, flag] of [
    [names, '--name'],
    [builds, '--build'],
  ] as const) {
    if (list.length !== 1 && list.length !== count) {
      fail(`give ${flag} once (shared) or once per IDE (${count} times), not ${list.length} times.`);
    }
  }

  const plugins: Record<string, boolean> = {};
  for (const entry of parsed.plugin ?? []) {
    const match = /^([^=]+?)(?:=(true|false))?$/.exec(entry.trim());
    if (!match?.[1]) fail(`--plugin takes an id or id=false, got "${entry}".`);
    plugins[match[1]] = match[2] !== 'false';
  }

  const policy = parsed['untrusted-origins'] ?? 'ask';
  if (policy !== 'ask' && policy !== 'accept' && policy !== 'refuse')
    fail(`--untrusted-origins is ask, accept or refuse, got "${policy}".`);

  const delay = integerArgument(parsed['edutools-delay'], '--edutools-delay');
  let eduTools: EduToolsOptions;
  switch (parsed.edutools ?? 'missing') {
    case 'installed':
      eduTools = { installed: true };
      break;
    case 'missing':
      eduTools = { installed: false, ...(delay === undefined ? {} : { appearsAfterInstallMs: delay }) };
      break;
    case 'never':
      eduTools = { installed: false, appearsAfterInstallMs: null };
      break;
    default:
      fail(`--edutools is installed, missing or never, got "${parsed.edutools}".`);
  }

  const rateLimitText = parsed['rate-limit'];
  const rateLimitPerMinute =
    rateLimitText === 'off' ? Number.POSITIVE_INFINITY : integerArgument(rateLimitText, '--rate-limit');
  const courseIds = parsed.course?.map((id) => integerArgument(id, '--course') ?? 0);
  const firstPort = integerArgument(parsed.port, '--port') ?? 63342;
  if (firstPort < 1 || firstPort + count - 1 > 65535)
    fail(`--port must leave room for ${count} IDE(s) below 65536.`);
  const installDurationMs = integerArgument(parsed['install-duration'], '--install-duration');

  return Array.from({ length: count }, (_, index) => ({
    port: firstPort + index,
    name: names.length === 1 ? names[0] : names[index],
    buildNumber: builds.length === 1 ? builds[0] : builds[index],
    plugins,
    trustedHosts: parsed['trusted-host'] ?? [],
    untrustedOrigins: policy satisfies UntrustedOriginPolicy,
    eduTools,
    ...(courseIds ? { courseIds } : {}),
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
    ...(installDurationMs === undefined ? {} : { installDurationMs }),
    onConfirmationRequested: (confirmation) => {
      const page = confirmation.page ?? 'a page that does not say where it is';
      console.log(
        `:${firstPort + index} asks whether to trust ${page} (question ${confirmation.id}): ` +
          'type y or n and Enter to answer.',
      );
    },
    ...(parsed.quiet
      ? {}
      : {
          onRequest: (request) => {
            const query = new URLSearchParams(request.query).toString();
            const note = request.ignored ? ' (ignored: another install is running)' : '';
            console.log(
              `${new Date(request.at).toISOString()} :${firstPort + index} ${request.method} ${request.path}` +
                `${query ? '?' + query : ''} -> ${request.status}${note}`,
            );
          },
        }),
  }));
}

async function main(): Promise<void> {
  const optionsList = parseCommandLine(process.argv.slice(2));
  const started: IdeSimulator[] = [];
  const closeAll = () => Promise.allSettled(started.map((simulator) => simulator.close()));
  try {
    for (const options of optionsList) started.push(await startIdeSimulator(options));
  } catch (error) {
    await closeAll();
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  for (const simulator of started) {
    console.log(`${simulator.name} (${simulator.buildNumber}) is listening on ${simulator.url}`);
  }
  // The IDEs' "trust this host?" questions are answered from the keyboard, the oldest first.
  const keyboard = createInterface({ input: process.stdin });
  keyboard.on('line', (line) => {
    const answer = line.trim().toLowerCase();
    if (!['y', 'yes', 'n', 'no'].includes(answer)) return;
    const oldest = started
      .flatMap((simulator) => simulator.pendingConfirmations().map((question) => ({ simulator, question })))
      .sort((a, b) => a.question.since - b.question.since)[0];
    if (!oldest) {
      console.log('No IDE is asking anything.');
      return;
    }
    const accept = answer.startsWith('y');
    oldest.simulator.confirmPending(accept, oldest.question.id);
    console.log(
      `:${oldest.simulator.port} ${accept ? 'trusts' : 'refuses'} ${oldest.question.page ?? 'it'}.`,
    );
  });
  const stop = () => {
    keyboard.close();
    void closeAll().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
