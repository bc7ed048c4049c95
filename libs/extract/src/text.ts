/** Text as it reads: each run of whitespace one space, none at the ends ('' for none). */
export const squish = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();
