import type { UpstreamProxy } from '@app/net-guard';
import type { ActionResults, EngineName, ScrapeOptions } from '@app/queue-contracts';
import type { ContentKind } from '../content/content-kind';
import type { PageError } from '../page-errors';
import type { SessionJar } from './session-state';

export interface EngineRequest {
  /** Already checked by the URL policy (http or https, no credentials). */
  url: string;
  options: ScrapeOptions;
  /** Pages with different keys never share a browser context (the account id). */
  isolationKey: string;
  /** Epoch ms by which loading and waiting must be over; capturing gets a short grace after it. */
  deadline: number;
  /** The caller's session (`options.session_id`): restored before the page, replaced by what it left. */
  session?: SessionJar;
  /** The upstream proxy the page goes through (credentials in clear: never logged). */
  proxy?: UpstreamProxy;
}

/** What an engine brings back from a page, before conversion into formats. */
export interface Capture {
  engine: EngineName;
  finalUrl: string | null;
  /** The target's status; null when it never answered (refused, timed out before headers). */
  status: number | null;
  /** The document's HTML (rendered DOM or fetched bytes), or a text document's text. */
  body?: string;
  /** A PDF's bytes (kind `pdf`), in place of `body`. */
  pdf?: Buffer;
  kind?: Exclude<ContentKind, 'unsupported'>;
  screenshot?: Buffer;
  /** What the page's actions brought back, up to the one that failed. */
  actions?: ActionResults;
  /** Page-level failures other than the target's status, which the service derives itself. */
  error?: PageError;
}

/**
 * One way of getting a page. `capture` reports page failures in the capture and throws only for
 * faults of the machinery (no browser can be launched, the egress proxy is gone).
 */
export interface RenderEngine {
  readonly name: EngineName;
  capture(request: EngineRequest): Promise<Capture>;
  close(): Promise<void>;
}
