export { extractMainContent } from './extract';
export { type PageKind, readPageProfile } from './profile';
export { type JsonLdNode, jsonLdNodes, typesOf } from './json-ld';
export { rootsOf, walkElements } from './walk';
export { squish } from './text';
