// Clean outputs (threats E1, E3, E4, E5): the public face of src/policy/sanitise/.

export {
  DEFAULT_MAX_BINARY_BYTES,
  DEFAULT_MAX_RESULT_BYTES,
  sanitise,
  type SanitiseOptions,
  type Sanitiser,
} from './sanitise.js';
export { cleanText } from './clean-text.js';
export { maskInternals } from './mask-internals.js';
export { ESCAPE_SEQUENCE, FLAG_TAG_SEQUENCE, UNSAFE_CHARACTER, joinsEmoji } from './characters.js';
