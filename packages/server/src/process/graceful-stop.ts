import type { FastifyInstance } from 'fastify';

/**
 * The whole stop may take this long: `docker stop` kills after 10 s (systemd after 90 s), and a process
 * killed then leaves its database lock and whatever it was writing.
 */
export const STOP_DEADLINE_MS = 9_000;

/** Requests in progress get this long to finish before their connections are closed under them. */
export const REQUEST_GRACE_MS = 2_000;

/** Says what a step is waiting for now, for the line logged if the deadline passes. */
type Note = (pending: string) => void;

interface Step {
  name: string;
  close: (note: Note) => Promise<void>;
}

export interface GracefulStopOptions {
  deadlineMs?: number;
  log?: (line: string) => void;
  exit?: (code: number) => void;
}

/**
 * How the server process stops on SIGTERM or SIGINT. The handlers are installed first thing, so a signal
 * during start-up (migrations, the demo load) is not lost or left to kill the process mid-write: `signal`
 * is aborted, start-up gives up after its current database step, and the steps added so far are closed.
 *
 * Steps close one at a time, in the reverse order of adding (the database, added first, closes last). The
 * process then exits 0, or 1 if a step failed. Whatever a step waits for (a client that reads slowly, a job
 * that does not look at its signal, a query that does not return), the process exits 1 at `deadlineMs`
 * after the signal, with a line naming what it still waited for. A second signal does not start again.
 */
export class GracefulStop {
  private readonly controller = new AbortController();
  private readonly steps: Step[] = [];
  private pending = 'nothing';
  private readonly deadlineMs: number;
  private readonly log: (line: string) => void;
  private readonly exit: (code: number) => void;

  constructor(options: GracefulStopOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? STOP_DEADLINE_MS;
    this.log = options.log ?? ((line) => console.log(line));
    this.exit = options.exit ?? ((code) => process.exit(code));
  }

  /** Aborted once a stop began: start-up and background work look at it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops on SIGTERM and SIGINT from now on. */
  listen(): this {
    process.on('SIGTERM', () => this.stop('SIGTERM'));
    process.on('SIGINT', () => this.stop('SIGINT'));
    return this;
  }

  /**
   * Something to close when stopping. Added after the stop began (start-up was still running), it is not
   * closed: the error thrown ends that start-up, and the process exits once the steps already there closed.
   */
  add(name: string, close: (note: Note) => Promise<void>): void {
    this.signal.throwIfAborted();
    this.steps.push({ name, close });
  }

  stop(reason: string): void {
    if (this.signal.aborted) {
      this.log(`${reason}: already stopping (closing ${this.pending}).`);
      return;
    }
    this.log(`${reason}: stopping...`);
    this.controller.abort(new Error(`The server is stopping (${reason}).`));
    const deadline = setTimeout(() => {
      this.log(
        `The server did not stop within ${this.deadlineMs / 1000} s of ${reason}: still closing ${this.pending}. Exiting anyway.`,
      );
      this.exit(1);
    }, this.deadlineMs);
    void this.closeSteps().then((code) => {
      clearTimeout(deadline);
      this.exit(code);
    });
  }

  private async closeSteps(): Promise<number> {
    let code = 0;
    for (const step of [...this.steps].reverse()) {
      this.pending = step.name;
      try {
        await step.close((pending) => (this.pending = `${step.name} (${pending})`));
      } catch (error) {
        this.log(`Closing ${step.name} failed: ${error instanceof Error ? error.message : String(error)}`);
        code = 1;
      }
    }
    this.pending = 'nothing';
    return code;
  }
}

/**
 * Closes the application: no new connections; requests in progress get `graceMs` to finish, then every
 * connection still open (a slow download, a body sent a byte at a time, headers that never end) is closed,
 * since Fastify's close waits for them all; then the application's onClose hooks run (the search index and
 * the IDE feed, the scheduler, the local admin channel...).
 */
export async function closeApp(app: FastifyInstance, graceMs: number, note: Note): Promise<void> {
  const server = app.server;
  if (!server.listening) return app.close();
  note('requests in progress');
  const force = setTimeout(() => {
    note('connections closed after the grace period');
    server.closeAllConnections();
  }, graceMs);
  server.once('close', () => {
    clearTimeout(force);
    note('the onClose hooks');
  });
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}
