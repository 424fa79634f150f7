/**
 * `pnpm cluster`: the scale-out layout on this machine, with the demo catalogue. Two server nodes on one
 * PostgreSQL database, Redis and an S3-API server (s3rver), behind haproxy on loopback; runs until Ctrl-C,
 * then stops everything and deletes its database and folders.
 *
 * Options: --nodes N (default 2, or CLUSTER_NODES), --port P (the load balancer's, default a free port, or
 * CLUSTER_PORT), --no-demo, --log-level L (the nodes' LOG_LEVEL, default info; their logs are files).
 */
import { parseArgs } from 'node:util';
import { startCluster, type Cluster } from './cluster';

const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: process.env.CLUSTER_NODES ?? '2' },
    port: { type: 'string', default: process.env.CLUSTER_PORT ?? '' },
    'no-demo': { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'info' },
  },
});

const nodes = Number(args.nodes);
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 26) {
  console.error(`--nodes must be a whole number from 1 to 26, got "${args.nodes}".`);
  process.exit(2);
}
const port = args.port === '' ? undefined : Number(args.port);
if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) {
  console.error(`--port must be a port number, got "${args.port}".`);
  process.exit(2);
}

let cluster: Cluster | undefined;
let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the cluster...`);
  await cluster?.stop();
  console.log('Stopped; its database and folders are deleted.');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

try {
  cluster = await startCluster({
    nodes,
    ...(port !== undefined ? { port } : {}),
    demo: !args['no-demo'],
    label: 'run',
    logLevel: args['log-level'],
    // The server's own limits, as in production (the tests raise them).
    env: {
      WRITE_RATE_LIMIT: '',
      LOGIN_RATE_LIMIT: '',
      TOKEN_FAILURE_RATE_LIMIT: '',
      SWEEP_INTERVAL_SECONDS: '',
    },
    log: (line) => console.log(line),
  });
} catch (error) {
  console.error(`The cluster did not start: ${(error as Error).message}`);
  process.exit(1);
}
if (stopping) process.exit(0);

console.log('');
console.log(`The marketplace (load balancer): ${cluster.url}`);
for (const node of cluster.nodes) {
  console.log(`  node ${node.name}: ${node.url}  (pid ${String(node.pid)}, log ${node.logFile})`);
}
console.log(`  PostgreSQL: ${cluster.databaseUrl}`);
console.log(`  Redis: ${cluster.redisUrl ?? '(none)'}`);
console.log(`  S3 API: ${cluster.s3.endpoint}, bucket ${cluster.s3.bucket} (key and secret S3RVER)`);
if (cluster.demoAccounts.length > 0) {
  console.log(`Demo accounts (sign in at ${cluster.url}):`);
  for (const account of cluster.demoAccounts) console.log(`  ${account.login} / ${account.password}`);
}
console.log('Ctrl-C stops it all.');
