import type { LoggerService } from '@nestjs/common';

/**
 * The libraries' Nest log lines for a command-line tool: on stderr, never stdout (which carries
 * the result), errors always, the rest with --verbose.
 */
export class StderrLogger implements LoggerService {
  constructor(private readonly chatty: boolean) {}

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    if (this.chatty) this.write('warn', message, rest);
  }

  log(message: unknown, ...rest: unknown[]): void {
    if (this.chatty) this.write('log', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    if (this.chatty) this.write('debug', message, rest);
  }

  private write(level: string, message: unknown, rest: unknown[]): void {
    const text = [message, ...rest]
      .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
      .join(' ');
    process.stderr.write(`scraper [${level}] ${text}\n`);
  }
}
