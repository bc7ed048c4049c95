/** A variable as the README's Configuration table shows it. */
export interface DocumentedVariable {
  name: string;
  /** Markdown: the default value in backticks, or what happens without one. */
  default: string;
  meaning: string;
}

interface Entry {
  schema: new () => object;
  meaning: string;
  shownDefault?: string;
}

/** In declaration order, which is the order of the schema file. */
const documented = new Map<string, Entry>();

/**
 * A variable's meaning, written once here for the README (`npm run docs:config`). `shownDefault`
 * replaces the schema's default value where that alone would not say enough (none, a path probed).
 */
export function Doc(meaning: string, shownDefault?: string): PropertyDecorator {
  return (target, property) => {
    documented.set(String(property), {
      schema: target.constructor as new () => object,
      meaning,
      shownDefault,
    });
  };
}

/** Defaults are strings, numbers or lists of strings. */
function shown(value: string | number | string[] | undefined): string {
  if (value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'empty';
  return `\`${value}\``;
}

/** Every documented variable, with the default its schema class gives it. */
export function documentedVariables(): DocumentedVariable[] {
  return [...documented].map(([name, { schema, meaning, shownDefault }]) => ({
    name,
    default:
      shownDefault ?? shown((new schema() as Record<string, string | number | string[] | undefined>)[name]),
    meaning,
  }));
}
