import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { SessionsEnv } from './sessions-env';
import { Doc } from './env-doc';
import { toInt } from './env-transforms';

/** Page actions' bounds (docs/api.md, Page actions). */
export class ActionsEnv extends SessionsEnv {
  // The API refuses requests past these, the worker holds pages to them: both read them.
  @Doc('most `actions` one request may give (docs/api.md, Page actions)')
  @Transform(toInt)
  @Min(1)
  @Max(1000)
  @IsInt()
  ACTIONS_MAX_COUNT = 50;

  @Doc(
    "most milliseconds a request's `wait` actions may add up to; every wait also ends at the page's `timeout`",
  )
  @Transform(toInt)
  @Min(0)
  @Max(120_000)
  @IsInt()
  ACTIONS_MAX_WAIT_MS = 60_000;

  @Doc('most bytes (UTF-8) of one `execute_javascript` script')
  @Transform(toInt)
  @Min(1)
  @Max(1_048_576)
  @IsInt()
  ACTIONS_MAX_SCRIPT_BYTES = 65_536;

  /** Base64 makes them a third larger in the result, which is held to 15 MiB of JSON. */
  @Doc(
    "most bytes of PNG a page's `screenshot` actions may take together; past it the page fails with `ACTION_FAILED`",
  )
  @Transform(toInt)
  @Min(0)
  @Max(10_485_760)
  @IsInt()
  ACTIONS_MAX_SCREENSHOT_BYTES = 5_242_880;
}

/** The ACTIONS_* settings as the API and the render path take them. */
export const actionLimits = (
  env: Pick<
    ActionsEnv,
    'ACTIONS_MAX_COUNT' | 'ACTIONS_MAX_WAIT_MS' | 'ACTIONS_MAX_SCRIPT_BYTES' | 'ACTIONS_MAX_SCREENSHOT_BYTES'
  >,
) => ({
  maxCount: env.ACTIONS_MAX_COUNT,
  maxWaitMs: env.ACTIONS_MAX_WAIT_MS,
  maxScriptBytes: env.ACTIONS_MAX_SCRIPT_BYTES,
  maxScreenshotBytes: env.ACTIONS_MAX_SCREENSHOT_BYTES,
});
