import { ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldProblem, InvalidRequestError } from '@app/common';

function problems(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    // An array's items read as `actions[3]`, as the caller wrote them.
    const field =
      /^\d+$/.test(e.property) && prefix ? `${prefix.slice(0, -1)}[${e.property}]` : prefix + e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...problems(e.children ?? [], `${field}.`)];
  });
}

/** Nest's validation output, reshaped into the 400 body with `errors: [{field, message}]`. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const list = problems(errors);
      const first = list[0];
      return new InvalidRequestError(first ? `${first.field}: ${first.message}` : 'Invalid request', list);
    },
  });
}
