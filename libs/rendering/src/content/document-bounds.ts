/** The bounds of a parsed document (parseDocument), which every walk over it relies on. */

/**
 * Most start tags a document may hold, counted before it is parsed: a parsed element costs about
 * 600 bytes of heap and its conversion time, and past this the page fails with TOO_COMPLEX rather
 * than take a content thread's whole heap or deadline (docs/api.md, "Limits").
 */
export const MAX_ELEMENTS = 200_000;

/**
 * Deepest element kept as an element; below it the markup is flattened into its text, kept. The
 * same depth at which Chromium's parser stops nesting, so both engines see the same shape, and
 * every walk over the tree (ours, Readability's) stays far from the stack's limit.
 */
export const MAX_DEPTH = 512;
