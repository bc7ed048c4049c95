import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  Validate,
  ValidateIf,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { FieldProblem, InvalidRequestError } from '@app/common';
import {
  ACTION_TYPES,
  MAX_TIMEOUT_MS,
  NAMED_KEYS,
  type ActionLimits,
  type ActionType,
  type PageAction,
} from '@app/queue-contracts';
import { isCssSelector } from './css-selector';

/** Longest `write` text: each character is two input events. */
export const MAX_WRITE_CHARS = 5000;
const MAX_SCROLL_PX = 1_000_000;

/** A field that belongs to some action types only: on another type it is a mistake, not ignored. */
@ValidatorConstraint({ name: 'actionField' })
class ActionFieldConstraint implements ValidatorConstraintInterface {
  validate(_: unknown, args: ValidationArguments): boolean {
    return (args.constraints[0] as ActionType[]).includes((args.object as ActionDto).type);
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} is not a field of a ${(args.object as ActionDto).type} action`;
  }
}
const OnlyFor = (...types: ActionType[]) => Validate(ActionFieldConstraint, [types]);

@ValidatorConstraint({ name: 'cssSelector' })
class SelectorConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && isCssSelector(value);
  }

  defaultMessage(): string {
    return 'selector must be a valid CSS selector';
  }
}

@ValidatorConstraint({ name: 'key' })
class KeyConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    return (NAMED_KEYS as readonly string[]).includes(value) || /^[^\p{C}\s]$/u.test(value);
  }

  defaultMessage(): string {
    return `key must be one printable character or one of: ${NAMED_KEYS.join(', ')}`;
  }
}

@ValidatorConstraint({ name: 'scrollAmount' })
class AmountConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      value === 'bottom' ||
      (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SCROLL_PX)
    );
  }

  defaultMessage(): string {
    return `amount must be "bottom" or a number of pixels from 1 to ${MAX_SCROLL_PX}`;
  }
}

@ValidatorConstraint({ name: 'waitEither' })
class WaitEitherConstraint implements ValidatorConstraintInterface {
  validate(_: unknown, args: ValidationArguments): boolean {
    return (args.object as ActionDto).selector === undefined;
  }

  defaultMessage(): string {
    return 'a wait action takes milliseconds or selector, not both';
  }
}

const needsSelector = (o: ActionDto) =>
  o.type === 'click' || o.type === 'write' || (o.type === 'wait' && o.milliseconds === undefined);

/**
 * One page action (docs/api.md, "Page actions"). One class for every type: each field says which
 * types take it (OnlyFor) and when it is required (ValidateIf). Decorators run bottom-up and the
 * first failure of a field is the one reported.
 */
export class ActionDto {
  @ApiProperty({ enum: ACTION_TYPES })
  @IsIn(ACTION_TYPES)
  type: ActionType;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_TIMEOUT_MS,
    description: '`wait`: milliseconds to wait (or `selector`).',
  })
  @Max(MAX_TIMEOUT_MS)
  @Min(0)
  @IsInt()
  @Validate(WaitEitherConstraint)
  @OnlyFor('wait')
  @IsOptional()
  milliseconds?: number;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 500,
    description:
      '`wait`: a CSS selector to wait for; `click`, `write`: the element to act on (waited for first). ' +
      'Matched in the document and inside open shadow roots, in tree order; not in closed shadow roots or frames.',
  })
  @Validate(SelectorConstraint)
  @Length(1, 500)
  @IsString({
    message: ({ object, value }) =>
      (object as ActionDto).type === 'wait' && value === undefined
        ? 'a wait action takes milliseconds or selector'
        : 'selector must be a string',
  })
  @OnlyFor('wait', 'click', 'write')
  @ValidateIf((o: ActionDto) => o.selector !== undefined || needsSelector(o))
  selector?: string;

  @ApiPropertyOptional({
    default: false,
    description: `\`click\`: every match (up to 100), not only the first.`,
  })
  @IsBoolean()
  @OnlyFor('click')
  @IsOptional()
  all?: boolean;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_WRITE_CHARS,
    description: '`write`: typed into the element as key events, after a click on it.',
  })
  @Length(1, MAX_WRITE_CHARS)
  @IsString()
  @OnlyFor('write')
  @ValidateIf((o: ActionDto) => o.text !== undefined || o.type === 'write')
  text?: string;

  @ApiPropertyOptional({
    description: `\`press\`: one printable character or one of ${NAMED_KEYS.join(', ')}.`,
  })
  @Validate(KeyConstraint)
  @OnlyFor('press')
  @ValidateIf((o: ActionDto) => o.key !== undefined || o.type === 'press')
  key?: string;

  @ApiPropertyOptional({ enum: ['up', 'down'], default: 'down', description: '`scroll`: which way.' })
  @IsIn(['up', 'down'])
  @OnlyFor('scroll')
  @IsOptional()
  direction?: 'up' | 'down';

  @ApiPropertyOptional({
    oneOf: [
      { type: 'integer', minimum: 1, maximum: MAX_SCROLL_PX },
      { type: 'string', enum: ['bottom'] },
    ],
    description:
      '`scroll`: pixels (a screenful by default), or `"bottom"`: as far as the page goes that way.',
  })
  @Validate(AmountConstraint)
  @OnlyFor('scroll')
  @IsOptional()
  amount?: number | 'bottom';

  @ApiPropertyOptional({
    default: false,
    description: '`screenshot`: the whole page (up to 16,384 CSS pixels tall), not only the viewport.',
  })
  @IsBoolean()
  @OnlyFor('screenshot')
  @IsOptional()
  full_page?: boolean;

  @ApiPropertyOptional({
    description:
      '`execute_javascript`: the body of an async function run in the page (`return x` gives x back, JSON-serialised); at most ACTIONS_MAX_SCRIPT_BYTES (64 KiB by default).',
  })
  @IsString()
  @OnlyFor('execute_javascript')
  @ValidateIf((o: ActionDto) => o.script !== undefined || o.type === 'execute_javascript')
  script?: string;
}

/**
 * The bounds that are configuration (ACTIONS_*), checked after the DTO's own validation, which has
 * no configuration: the count, the waits' sum and each script's size.
 */
export function checkActionLimits(actions: ActionDto[] | undefined, limits: ActionLimits): void {
  if (!actions) return;
  const problems: FieldProblem[] = [];
  if (actions.length > limits.maxCount) {
    problems.push({ field: 'actions', message: `actions must contain at most ${limits.maxCount} actions` });
  }
  const waited = actions.reduce((sum, a) => sum + (a.milliseconds ?? 0), 0);
  if (waited > limits.maxWaitMs) {
    problems.push({
      field: 'actions',
      message: `the wait actions add up to ${waited} ms, more than ${limits.maxWaitMs}`,
    });
  }
  actions.forEach((a, i) => {
    if (a.script !== undefined && Buffer.byteLength(a.script) > limits.maxScriptBytes) {
      problems.push({
        field: `actions[${i}].script`,
        message: `script must be at most ${limits.maxScriptBytes} bytes`,
      });
    }
  });
  if (problems.length)
    throw new InvalidRequestError(`${problems[0].field}: ${problems[0].message}`, problems);
}

/** The actions as the worker takes them: only the fields of each type, defaults filled in. */
export function toPageActions(actions: ActionDto[]): PageAction[] {
  return actions.map((a): PageAction => {
    switch (a.type) {
      case 'wait':
        return a.selector !== undefined
          ? { type: 'wait', selector: a.selector }
          : { type: 'wait', milliseconds: a.milliseconds! };
      case 'click':
        return { type: 'click', selector: a.selector!, ...(a.all ? { all: true } : {}) };
      case 'write':
        return { type: 'write', selector: a.selector!, text: a.text! };
      case 'press':
        return { type: 'press', key: a.key! };
      case 'scroll':
        return {
          type: 'scroll',
          direction: a.direction ?? 'down',
          ...(a.amount !== undefined ? { amount: a.amount } : {}),
        };
      case 'screenshot':
        return { type: 'screenshot', full_page: a.full_page ?? false };
      case 'execute_javascript':
        return { type: 'execute_javascript', script: a.script! };
      case 'scrape':
        return { type: 'scrape' };
    }
  });
}
