// Poisoned and hostile upstream tool definitions (threats C1, C5, C6): findings, stripping, refusals, bounds.

export { scanTool, stripTool, MAX_FINDINGS } from './scan-tool.js';
export { checkDefinition, refuseDefinition } from './refuse-definition.js';
export { patternProblem, MAX_PATTERN_LENGTH } from '../../schema/pattern/index.js';
export {
  DEFAULT_DEFINITION_LIMITS,
  DEFAULT_LISTING_LIMITS,
  type DefinitionLimits,
  type Finding,
  type ListingLimits,
} from './types.js';
export { vetTool, type PoisoningMode, type Vetting } from './vet-tool.js';
export { scanText, stripText } from './scan-text.js';
