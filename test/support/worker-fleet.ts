import { RunningProcess, startWorkerProcess } from './processes';

/**
 * Worker child processes for destructive tests: each starts on the fleet's environment (its own
 * Redis) plus its own overrides, and `stopAll` (an afterEach) SIGKILLs whatever a test left running.
 */
export class WorkerFleet {
  private readonly running: RunningProcess[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async start(env: NodeJS.ProcessEnv = {}): Promise<RunningProcess> {
    const proc = await startWorkerProcess({ ...this.env, ...env });
    this.running.push(proc);
    return proc;
  }

  async stopAll(): Promise<void> {
    for (const w of this.running.splice(0)) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  }
}
