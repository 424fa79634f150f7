/**
 * `pnpm bench upload`: the time and the server's memory for uploading plugin archives through
 * POST /api/updates/upload. Starts the server (src/server.ts) as a child process on a fresh DATA_DIR
 * (embedded database), uploads a 5 MB and a 200 MB jar (random content, so nothing compresses) streamed
 * from disk, and samples the server's resident memory (/proc/<pid>/status) every 10 ms while each upload
 * runs. The upload pipeline streams (receive to a temporary file, inspect entry by entry, store by hash),
 * so the memory it adds must not grow with the archive: the check at the end compares the two.
 *
 * Options: --sizes 5,200 (MB), --runs 2 (uploads per size), --data-dir DIR (default: a new temporary one).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import yazl from 'yazl';
import { createApiToken } from '../src/auth/api-tokens';
import { createLocalUser } from '../src/auth/users';
import { openDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { plugins, vendors } from '../src/db/schema';
import { startServerProcess, type ServerProcess } from '../test/support/server-process';

const MEGABYTE = 1024 * 1024;

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '5,200' },
    runs: { type: 'string', default: '2' },
    'data-dir': { type: 'string' },
  },
});
const sizes = args.sizes.split(',').map((text) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 399) {
    console.error(`--sizes takes whole numbers of megabytes from 1 to 399, got "${text}".`);
    process.exit(2);
  }
  return value;
});
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 10) {
  console.error(`--runs must be a whole number from 1 to 10, got "${args.runs}".`);
  process.exit(2);
}

const PLUGIN_XML = (version: string) => `<?xml version="1.0" encoding="UTF-8"?>
<idea-plugin>
  <id>com.example.bench</id>
  <name>Upload Benchmark</name>
  <version>${version}</version>
  <vendor email="bench@example.com" url="https://example.com">Benchmark Vendor</vendor>
  <description><![CDATA[<p>A plugin archive made to measure how uploads use time and memory on the server.</p>]]></description>
  <idea-version since-build="241" until-build="243.*"/>
  <depends>com.intellij.modules.platform</depends>
</idea-plugin>
`;

/** A jar of about `megabytes` MB: plugin.xml and 1 MB entries of random bytes, stored uncompressed. */
async function writeJar(path: string, megabytes: number, version: string): Promise<void> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(PLUGIN_XML(version)), 'META-INF/plugin.xml');
  for (let index = 0; index < megabytes; index += 1) {
    zip.addReadStream(Readable.from([randomBytes(MEGABYTE)]), `resources/blob-${index}.bin`, {
      compress: false,
    });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

/** Resident memory of a process in bytes, from /proc (Linux). */
async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** Sends the jar as curl -F would, streamed from disk, and answers the status and body. */
async function upload(
  port: number,
  token: string,
  jarPath: string,
): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="xmlId"\r\n\r\ncom.example.bench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.jar"\r\n` +
      'Content-Type: application/java-archive\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = await stat(jarPath);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/updates/upload',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + size + tail.length,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.write(head);
    const file = createReadStream(jarPath);
    file.on('error', reject);
    file.on('end', () => outgoing.end(tail));
    file.pipe(outgoing, { end: false });
  });
}

interface Measurement {
  megabytes: number;
  seconds: number;
  baselineBytes: number;
  peakBytes: number;
}

async function main(): Promise<void> {
  const ownsDataDir = args['data-dir'] === undefined;
  const dataDir = args['data-dir'] ?? (await mkdtemp(join(tmpdir(), 'mp-upload-bench-')));
  const scratch = await mkdtemp(join(tmpdir(), 'mp-upload-bench-archives-'));
  let server: ServerProcess | undefined;
  try {
    const database = await openDatabase({ dataDir });
    await migrate(database);
    const owner = await createLocalUser(database.db, {
      login: 'bench-owner',
      password: 'bench-owner-password',
    });
    const [vendor] = await database.db
      .insert(vendors)
      .values({ name: 'Benchmark Vendor' })
      .onConflictDoNothing()
      .returning({ id: vendors.id });
    await database.db
      .insert(plugins)
      .values({
        family: 'intellij',
        xmlId: 'com.example.bench',
        name: 'Upload Benchmark',
        vendorId: vendor?.id,
        ownerId: owner.id,
      })
      .onConflictDoNothing();
    const { token } = await createApiToken(database.db, {
      userId: owner.id,
      name: 'bench',
      scopes: ['upload'],
    });
    await database.close();

    server = await startServerProcess({
      env: {
        DATA_DIR: dataDir,
        NO_DEMO: 'true',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        SWEEP_INTERVAL_SECONDS: '0',
      },
    });
    const port = server.port;
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('The server process has no pid.');

    const measurements: Measurement[] = [];
    let versionCounter = 0;
    for (const megabytes of sizes) {
      for (let run = 0; run < runs; run += 1) {
        versionCounter += 1;
        const jarPath = join(scratch, `bench-${megabytes}-${run}.jar`);
        await writeJar(jarPath, megabytes, `1.${versionCounter}.0-${Date.now()}`);
        // Let the server settle, so the baseline is its idle memory.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const baselineBytes = await residentBytes(pid);
        let peakBytes = baselineBytes;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peakBytes = Math.max(peakBytes, await residentBytes(pid));
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })();
        const started = process.hrtime.bigint();
        const answer = await upload(port, token, jarPath);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        sampling = false;
        await sampler;
        await rm(jarPath, { force: true });
        if (answer.status !== 200)
          throw new Error(`The ${megabytes} MB upload answered ${answer.status}: ${answer.body}`);
        measurements.push({ megabytes, seconds, baselineBytes, peakBytes });
        const mb = (bytes: number) => (bytes / MEGABYTE).toFixed(1);
        console.log(
          `${String(megabytes).padStart(4)} MB archive: ${seconds.toFixed(2)} s (${(megabytes / seconds).toFixed(1)} MB/s), ` +
            `server RSS ${mb(baselineBytes)} MB before, peak ${mb(peakBytes)} MB (+${mb(peakBytes - baselineBytes)} MB)`,
        );
      }
    }

    const growth = (size: number) =>
      Math.max(...measurements.filter((m) => m.megabytes === size).map((m) => m.peakBytes - m.baselineBytes));
    const smallest = Math.min(...sizes);
    const largest = Math.max(...sizes);
    if (largest > smallest) {
      const extra = (growth(largest) - growth(smallest)) / MEGABYTE;
      const flat = extra < 32;
      console.log(
        `Memory added by a ${largest} MB upload beyond a ${smallest} MB one: ${extra.toFixed(1)} MB ` +
          `(${flat ? 'flat' : 'NOT flat'}: the archive is ${largest - smallest} MB larger).`,
      );
      if (!flat) process.exitCode = 1;
    }
  } finally {
    await server?.stop();
    await rm(scratch, { recursive: true, force: true });
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
