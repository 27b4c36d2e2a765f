// Types of @emojisearch/client/core: the search core alone (core.js), the
// dictionary engine and its text rules. No loaders, sessions, providers,
// culture layer or binary indexes: those come from the package root.
import type { AliasEngine, Pack } from './index.js'

export type {
  AliasEngine, AliasResult, AliasSearchOutput, CanonicalSearchOutput, EmojiEntry, Field, Pack, PackRow, SearchOptions, SearchResult, Source,
} from './index.js'

/** Options of the bare core's engine: no culture file (it refuses one). */
export interface CoreEngineOptions { minCoverage?: number }
/** An engine over JSON packs (the English core pack required); binary and device indexes need the package root. */
export function createEngine(input: Pack | Pack[], options?: CoreEngineOptions): AliasEngine
export function normalize(input: string, maxLength?: number): string
export function tokenize(normalized: string): string[]
