import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createMcpServer } from './mcp-server';
import type { ScraperBackend } from './scraper-backend';

/**
 * `scraper mcp`: the tools over stdin/stdout for a local agent, until stdin ends. Nothing else may
 * write to stdout meanwhile (it carries the protocol): logs go to stderr.
 */
export async function serveMcpStdio(
  backend: ScraperBackend,
  streams: { stdin?: Readable; stdout?: Writable; version?: string } = {},
): Promise<void> {
  const server = createMcpServer(backend, streams.version);
  const transport = new StdioServerTransport(streams.stdin, streams.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  (streams.stdin ?? process.stdin).once('end', () => void server.close());
  await server.connect(transport);
  await closed;
}
