import { plainToInstance } from 'class-transformer';
import { ValidationError, getMetadataStorage, validateSync } from 'class-validator';

/** Raised when the environment does not satisfy a schema; the message names each bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const name = prefix + e.property;
    // class-validator's own messages start with the property name; ours do not.
    const own = Object.values(e.constraints ?? {}).map(
      (m) => `${name}: ${m.startsWith(`${e.property} `) ? m.slice(e.property.length + 1) : m}`,
    );
    return [...own, ...flatten(e.children ?? [], `${name}.`)];
  });
}

/**
 * Validates an environment against a schema. Only the schema's own variables are read, and empty
 * strings count as unset so that `FOO=` in a .env file falls back to the default.
 */
export function parseEnv<T extends object>(schema: new () => T, env: NodeJS.ProcessEnv): T {
  const known = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(schema, '', true, false)
      .map((m) => m.propertyName),
  );
  const input: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const instance = plainToInstance(schema, input, { exposeDefaultValues: true });
  const problems = flatten(validateSync(instance, { forbidUnknownValues: false, stopAtFirstError: true }));
  if (problems.length) throw new ConfigError(problems);
  return instance;
}
