import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '@app/config';
import { BackendRefusal, type ScraperBackend, serveMcpStdio } from '@app/mcp';
import { CRAWL_DEFAULTS } from '@app/queue-contracts';
import {
  crawlCommand,
  mapCommand,
  scrapeCommand,
  type CrawlFlags,
  type MapFlags,
  type ScrapeFlags,
} from './commands';
import { CliError, EXIT } from './exit-codes';
import type { LocalBackend } from './local-backend';
import { CLI_FORMATS } from './output';
import { remoteBackend } from './remote-backend';
import { StderrLogger } from './stderr-logger';

/** Loopback and the private ranges `--allow-private` opens (metadata endpoints stay refused). */
const PRIVATE_CIDRS = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7'];

const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  failure of the machinery (no browser could start, an unexpected error)
  2  bad command line
  3  the page failed (HTTP error, timeout, DNS, ...), or every page of a crawl did
  4  the address policy refused the target (private addresses need --allow-cidr or --allow-private)
  5  the cluster refused the request or could not be reached (--api)

Environment: NET_EGRESS_MODE, NET_ALLOW_CIDRS, CHROMIUM_PATH and the worker's other rendering
variables (README.md, Configuration); SCRAPER_API_URL and SCRAPER_API_KEY for --api and --key.`;

interface GlobalFlags {
  api?: string;
  key?: string;
  allowCidr: string[];
  allowPrivate?: boolean;
  verbose?: boolean;
}

/** A page's URL as the shell gave it: absolute http(s), or a usage error (the policy judges the rest). */
const pageUrl = (value: string): string => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('must be an absolute http:// or https:// URL');
  }
  return value;
};

/** This package's version, from the package.json above this file (in a clone or an install). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number above 0');
  return n;
};

/** The cluster with --api, else this process; the key only from --key or SCRAPER_API_KEY. */
async function backendFor(flags: GlobalFlags): Promise<ScraperBackend | LocalBackend> {
  if (flags.api) {
    if (!flags.key) throw new CliError(EXIT.usage, 'scraper: --api needs a key: --key K or SCRAPER_API_KEY');
    return remoteBackend(flags.api, flags.key);
  }
  const allowCidrs = [...flags.allowCidr, ...(flags.allowPrivate ? PRIVATE_CIDRS : [])];
  // Loaded only here: the renderer's libraries take seconds to load, which --help and --api never need.
  const { localBackend } = await import('./local-backend');
  return localBackend({ allowCidrs });
}

function program(
  run: (work: (backend: ScraperBackend) => Promise<number>, cmd: Command) => Promise<void>,
): Command {
  const cli = new Command('scraper')
    .description('Scrape, crawl and map web pages, rendered in this process or by a running cluster (--api).')
    .addOption(new Option('--api <url>', 'send the command to a running cluster').env('SCRAPER_API_URL'))
    .addOption(
      new Option('--key <key>', "the cluster's API key (prefer SCRAPER_API_KEY)").env('SCRAPER_API_KEY'),
    )
    .option(
      '--allow-cidr <cidr>',
      'also open this CIDR to the address policy (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--allow-private', 'open loopback and the private ranges (10/8, 172.16/12, 192.168/16, fc00::/7)')
    .option('--verbose', "the renderer's warnings and logs, and a failure's whole error, on stderr")
    .version(packageVersion())
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`scraper: ${text.replace(/^error: /, '')}`) });
  const formats = new Option('--format <format>', 'what to output').choices(CLI_FORMATS).default('markdown');
  const render = new Option(
    '--render <mode>',
    'http: no browser; browser: always one; auto: a browser only if the page needs it',
  ).choices(['auto', 'http', 'browser']);
  cli
    .command('scrape')
    .description('Render one page and print it, raw, in one format')
    .argument('<url>', 'the page (an absolute http:// or https:// URL)', pageUrl)
    .addOption(formats)
    .addOption(render)
    .option('--wait-for <selector>', 'wait for this CSS selector before reading the page (a browser)')
    .option('--actions <file>', 'a JSON file with a list of page actions (docs/api.md, Page actions)')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--timeout <ms>', "the page's time budget", positiveInt)
    .option('--all-content', 'the whole page, not only its main content')
    .addHelpText('after', EXIT_CODES_HELP)
    .action((url: string, flags: ScrapeFlags, cmd: Command) => run((b) => scrapeCommand(b, url, flags), cmd));
  cli
    .command('crawl')
    .description('Crawl a site from URL: pages as files in --out, JSON lines on stdout when piped')
    .argument('<url>', 'the page (an absolute http:// or https:// URL)', pageUrl)
    .option('--limit <n>', 'pages fetched at most', positiveInt, CRAWL_DEFAULTS.limit)
    .option('--max-depth <n>', 'link hops from URL', positiveInt)
    .option('--out <dir>', 'write each page into this directory (made if missing)')
    .addOption(
      new Option('--format <format>', "each page's file")
        .choices(CLI_FORMATS.filter((f) => f !== 'screenshot'))
        .default('markdown'),
    )
    .addOption(render)
    .addHelpText('after', EXIT_CODES_HELP)
    .action((url: string, flags: CrawlFlags, cmd: Command) => run((b) => crawlCommand(b, url, flags), cmd));
  cli
    .command('map')
    .description("List a site's URLs from its sitemaps and start page, without rendering them")
    .argument('<url>', 'the page (an absolute http:// or https:// URL)', pageUrl)
    .option('--limit <n>', 'URLs listed at most', positiveInt)
    .option('--search <words>', 'URLs holding more of these words first')
    .addHelpText('after', EXIT_CODES_HELP)
    .action((url: string, flags: MapFlags, cmd: Command) => run((b) => mapCommand(b, url, flags), cmd));
  cli
    .command('mcp')
    .description(
      'Serve the MCP tools (scrape, batch_scrape, crawl, map, job_status, cancel) over stdin and stdout for a local agent (docs/mcp.md)',
    )
    .addHelpText('after', EXIT_CODES_HELP)
    .action((_flags: object, cmd: Command) =>
      run(async (b) => {
        // stdout is the protocol's channel from here on: logs go to stderr (StderrLogger).
        await serveMcpStdio(b, { version: packageVersion() });
        return EXIT.ok;
      }, cmd),
    );
  return cli;
}

/** Runs a command against its backend, closes it, and turns what went wrong into one stderr line and a code. */
async function runCommand(work: (backend: ScraperBackend) => Promise<number>, cmd: Command): Promise<void> {
  const flags = cmd.optsWithGlobals<GlobalFlags>();
  Logger.overrideLogger(new StderrLogger(flags.verbose ?? false));
  const backend = await backendFor(flags);
  try {
    process.exitCode = await work(backend);
  } finally {
    if ('close' in backend) await backend.close();
  }
}

function explain(err: unknown, verbose: boolean): { code: number; line: string } {
  if (err instanceof CliError) return { code: err.exitCode, line: err.message };
  if (err instanceof ConfigError)
    return { code: EXIT.usage, line: `scraper: ${err.message.replace(/\n\s*/g, ' ')}` };
  if (err instanceof BackendRefusal) {
    // The API's words for a URL its address policy refuses (apps/api/src/scrape/url-checker.ts).
    const refused = err.status === 400 && err.message.includes('an address this service may not reach');
    return { code: refused ? EXIT.refused : EXIT.api, line: `scraper: ${err.code}: ${err.message}` };
  }
  // One line: a browser's launch error, say, runs to a screenful.
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return { code: EXIT.failure, line: `scraper: ${message}${verbose ? '' : ' (--verbose for more)'}` };
}

async function main(): Promise<void> {
  try {
    await program(runCommand).parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    // Read from argv: a failure may come before the flags are parsed.
    const verbose = process.argv.includes('--verbose');
    const { code, line } = explain(err, verbose);
    process.stderr.write(`${line}\n`);
    if (code === EXIT.failure && verbose) console.error(err);
    process.exitCode = code;
  }
  // Nothing of the run may keep the process alive past its answer (a keep-alive socket, a timer).
  setImmediate(() => process.exit());
}

void main();
