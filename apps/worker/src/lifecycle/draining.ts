import { Injectable } from '@nestjs/common';

/**
 * Set when the worker starts shutting down (SIGTERM). Work that holds several pages in one queue
 * job checks it between pages and hands the rest back to the queue, so the drain lasts one page.
 */
@Injectable()
export class Draining {
  private started = false;

  get active(): boolean {
    return this.started;
  }

  start(): void {
    this.started = true;
  }
}
