// Types of @emojisearch/client (spec 3). Checked by `tsc --noEmit` (client/test/types-check.ts).

export type Source = 'alias' | 'semantic' | 'custom' | 'culture'
export type Field = 'name' | 'shortcode' | 'keyword' | 'alias' | 'low' | 'editorial' | 'editorial_more' | 'typo'

export interface SearchResult {
  emoji: string
  id: string
  score: number
  source: Source
  imageUrl?: string
  shortcode?: string
}
export interface AliasResult extends SearchResult {
  source: 'alias' | 'custom'
  label: string
  match: string
  field: Field
}
export interface CultureResult extends SearchResult {
  source: 'culture'
  context: string
  cultureId: string
  match: string
  field: 'culture'
}
/** A result only the meaning layer (shards or the search API) found. */
export interface SemanticResult extends SearchResult {
  source: 'semantic'
  label?: string
}
/**
 * A result as sessions and fusion give them, a union keyed on `source`:
 * `if (r.source === 'alias') r.label` type-checks without casts.
 */
export type ResultItem = AliasResult | CultureResult | SemanticResult
export interface CanonicalSearchOutput {
  query: string
  tokens: string[]
  results: AliasResult[]
  confidence: number
}
export interface AliasSearchOutput {
  query: string
  tokens: string[]
  results: Array<AliasResult | CultureResult>
  confidence: number
}
export interface EmojiEntry {
  emoji: string
  id: string
  group: number
  version: number
  hasSkinTones: boolean
  labels: Record<string, string>
  imageUrl?: string
  shortcode?: string
}

export type PackRow = Array<string | number>
export interface Pack {
  format: 'emojisearch.pack'
  formatVersion: number
  packVersion: string
  locale: string
  part: 'core' | 'ext' | 'custom'
  fields?: string[]
  weights?: Record<string, number>
  rowIndex?: Record<string, number>
  groups?: string[]
  rows: PackRow[]
}

/** The custom pack GET /v1/custom-pack serves (packs/FORMAT.md): rows add an image address at rowIndex.imageUrl. */
export interface CustomPack extends Pack {
  part: 'custom'
  /** The custom pack's layout version (1). */
  layout: number
  /** null in an empty pack (a development key). */
  appId: string | null
  /** The tenant whose emoji join the app-wide ones; null without one. */
  tenant: string | null
  rowIndex: Record<string, number> & { imageUrl: number }
}

export interface CultureWindow { from: string; to: string }
export interface CultureEntry {
  id: string
  emoji: string
  hexcode: string
  kind: 'lasting' | 'seasonal' | 'event' | 'regional'
  weight: number
  context: string
  triggers: string[]
  windows?: CultureWindow[]
  regions?: string[]
  over?: string[]
}
export interface CultureFile {
  format: 'emojisearch.culture'
  formatVersion: number
  packVersion: string
  locale: string
  from: string
  to: string
  entries: CultureEntry[]
}

export interface SearchOptions {
  limit?: number
  locale?: string
  prefix?: boolean
  culture?: boolean | CultureFile
  region?: string
  now?: Date | number
  day?: string
}

export interface AliasEngine {
  search(query: string, options: SearchOptions & { culture: false }): CanonicalSearchOutput
  search(query: string, options?: SearchOptions): AliasSearchOutput
  get(id: string): EmojiEntry | undefined
  withCulture(culture: CultureFile | undefined): AliasEngine
  /** Engines of the package root only (the bare core of `./core` has none): the group's label in a loaded locale's pack. */
  groupLabel?(group: number, locale?: string): string
  readonly culture: CultureFile | undefined
  readonly entries: readonly EmojiEntry[]
  readonly locales: readonly string[]
  readonly packVersion: string
}
export declare const AliasEngine: { prototype: AliasEngine }

export interface EngineOptions { minCoverage?: number; culture?: CultureFile }
/**
 * A binary index of a locale (`index.<locale>.bin`) or a device index
 * (`device.<locale>.bin`) under /v1/pack/<version>/, as ArrayBuffer or
 * Uint8Array: the package root reads it in place instead of indexing that
 * locale's JSON packs (the English core pack is still required: entries and
 * word lists). Not accepted by the bare `./core`.
 */
export type BinaryIndex = ArrayBuffer | Uint8Array
export function createEngine(input: Pack | BinaryIndex | (Pack | BinaryIndex)[], options?: EngineOptions): AliasEngine

type FetchLike = (input: string, init?: { signal?: AbortSignal; headers?: Record<string, string> }) => Promise<Response>
/** The pack locales, English first. */
export const LOCALES: readonly ['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr']
export type PackLocale = (typeof LOCALES)[number]
/** The pack locale of a BCP 47 tag as search reads it ("pt-BR" is "pt"); throws a RangeError for another language. */
export function packLocale(tag: string): PackLocale
/**
 * What createEngine needs for English and the locales (BCP 47 tags; an
 * unsupported one rejects with a RangeError before any fetch), from
 * baseUrl = {endpoint}/v1/pack/<packVersion> (packVersion of GET /v1/health).
 * Part `core` (the default): pack.en.json, then each locale's device index
 * (device.<locale>.bin: core, extension and editorial phrases and the
 * emoticons, as the search API's dictionary tier but for the English related
 * words) as a pack with no rows, read in place by the package root's
 * createEngine; a locale whose device index cannot be used comes as its core
 * JSON pack. `index: false`: the core JSON packs only. Part `ext`: core and
 * extension JSON packs (the whole dictionary tier, related words included).
 */
export function loadPacks(options: { baseUrl: string; locales?: string[]; part?: 'core' | 'ext' | 'assoc'; index?: boolean; fetch?: FetchLike; signal?: AbortSignal }): Promise<Pack[]>
export function loadCustomPack(options: { endpoint: string; key: string; tenant?: string; fetch?: FetchLike; signal?: AbortSignal }): Promise<CustomPack>
export function assertPack(value: unknown): Pack
export function isCustomPack(value: unknown): value is CustomPack
export const PACK_FORMAT: 'emojisearch.pack'
export const PACK_FORMAT_VERSION: number
export const FIELDS: readonly Field[]
export const DEFAULT_WEIGHTS: Readonly<Record<Field | 'english', number>>
export const ROW_INDEX: Readonly<Record<string, number>>
export const CUSTOM_ID_PREFIX: string

export interface SemanticResponse {
  results: SearchResult[]
  packVersion?: string
  model?: string
  cached?: boolean
  layer?: 'shard' | 'api'
}
export interface SemanticSearchOptions { locale?: string; limit?: number; signal?: AbortSignal }
export interface SemanticProvider {
  search(query: string, options?: SemanticSearchOptions): Promise<SemanticResponse | undefined>
}
export function createSemanticClient(options: {
  endpoint: string
  key?: string
  packVersion?: string
  cacheSize?: number
  overLimitCooldownMs?: number
  fetch?: FetchLike
}): SemanticProvider
export function createShardProvider(options: { baseUrl: string; fetch?: FetchLike }): SemanticProvider
export function createLayeredSemantic(options: {
  shardsUrl?: string
  endpoint?: string
  key?: string
  packVersion?: string
  cacheSize?: number
  overLimitCooldownMs?: number
  fetch?: FetchLike
}): SemanticProvider | undefined
export function chainProviders(...providers: Array<SemanticProvider | undefined>): SemanticProvider
export function shardKeyFor(keys: readonly string[], query: string, locale?: string): string | undefined // packs/FORMAT.md "Result shards"

export interface SessionState {
  query: string
  results: ResultItem[]
  alias: CanonicalSearchOutput
  status: 'idle' | 'alias' | 'loading' | 'fused' | 'error'
  aliasMs: number
  semanticMs?: number
  semanticCached?: boolean
  layer?: 'device' | 'shard' | 'api'
  error?: unknown
}
export interface SearchSessionOptions {
  engine: AliasEngine
  semantic?: SemanticProvider
  locale?: string
  limit?: number
  debounceMs?: number
  shouldUseSemantic?: (alias: CanonicalSearchOutput) => boolean
  culture?: CultureFile | false
  region?: string
  onChange?: (state: SessionState) => void
}
export interface SearchSession { update(query: string): void; dispose(): void }
export function createSearchSession(options: SearchSessionOptions): SearchSession

export interface SemanticCalibration { floor: number; ceiling: number }
/** Dictionary confidence under which a session asks the meaning layer, for one word and for several. */
export interface SessionCalibration { oneWord: number; words: number }
export const DEFAULT_SESSION_CALIBRATION: Readonly<SessionCalibration>
/** The session's default rule: the dictionary's confidence under the calibrated threshold for what was typed. */
export function needsMeaning(alias: { tokens: readonly string[]; confidence: number }, calibration?: SessionCalibration): boolean
export interface SemanticHit { id: string; emoji?: string; cosine?: number; score?: number }
export const DEFAULT_SEMANTIC_CALIBRATION: Readonly<SemanticCalibration>
export function shouldUseSemantic(alias: { tokens: readonly string[]; confidence: number }): boolean
export function semanticConfidence(semantic: readonly SemanticHit[] | SemanticResponse, calibration?: SemanticCalibration): number
export function fuse<T extends ResultItem>(alias: { results: readonly T[]; confidence: number }, semantic: readonly SemanticHit[] | SemanticResponse, limit?: number, calibration?: SemanticCalibration): Array<T | SemanticResult>
export function fuseResults<T extends ResultItem>(
  alias: readonly T[] | { results: readonly T[] },
  semantic: readonly SemanticHit[] | SemanticResponse,
  options?: { k?: number; pinScore?: number; aliasFloor?: number; aliasWeight?: number; semanticWeight?: number },
): Array<T | SemanticResult>

export function normalize(input: string, maxLength?: number): string
export function tokenize(normalized: string): string[]
export const MAX_QUERY_LENGTH: number
export function embeddingText(input: string): string
/** SKIN_TONES[1..5]: the modifiers light to dark; SKIN_TONES[0] is no tone. */
export const SKIN_TONES: readonly ['', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}']
/** A tone as applySkinTone takes it: 0..5, or the modifier (an element of SKIN_TONES). */
export type SkinTone = 0 | 1 | 2 | 3 | 4 | 5 | (typeof SKIN_TONES)[number]
/** Puts the tone on every skin-tone base; 0 or '' removes tones; any other value throws a RangeError. */
export function applySkinTone(emoji: string, tone: SkinTone): string
export function baseId(hexcode: string): string
export function groupLabel(group: number, locale?: string, engine?: AliasEngine): string
export function hexcodeOf(emoji: string): string
export function boundedEditDistance(a: string, b: string, max: number): number
export const COMMON_REACTIONS: readonly string[]

export interface Featured { emoji: string; hexcode: string; context: string; cultureId: string }
export interface CultureOptions { region?: string; day?: string; now?: Date | number; limit?: number }
export function loadCulture(options: { baseUrl: string; locale?: string; fetch?: FetchLike; signal?: AbortSignal }): Promise<CultureFile>
export function assertCulture(value: unknown): CultureFile
export const CULTURE_FORMAT: 'emojisearch.culture'
export const CULTURE_FORMAT_VERSION: number
export function relevantNow(culture: CultureFile, options?: CultureOptions): Featured[]
export function matchRegionalLead(culture: CultureFile, query: string, topId: string | undefined, options: CultureOptions): CultureResult | undefined
export function matchCulture(culture: CultureFile, query: string, options?: CultureOptions): CultureResult[]
export function insertCulture<T extends SearchResult>(results: readonly T[], cultureResults: readonly CultureResult[], limit?: number): Array<T | CultureResult>
export function applyCulture<T extends SearchResult>(culture: CultureFile | undefined, query: string, results: readonly T[], options?: CultureOptions): Array<T | CultureResult>
export function isActiveOn(when: Pick<CultureEntry, 'kind' | 'windows'>, day: string): boolean
export function localDay(now?: Date | number): string
export function deviceRegion(): string | undefined
export function regionOf(locale: string): string | undefined

export const EMOJI_SETS: readonly ['native', 'twemoji', 'openmoji', 'noto']
export type EmojiSet = (typeof EMOJI_SETS)[number]
export function isEmojiSet(value: unknown): value is EmojiSet
export function emojiImageUrl(emoji: string, options: { endpoint?: string; emojiSet?: EmojiSet }): string | undefined

export interface VectorIndex { model: string; dims: number; ids: string[]; rows: Float32Array }
export interface VectorMatch { id: string; score: number }
export function decodeVectors(buffer: ArrayBuffer | Uint8Array): VectorIndex
export function encodeVectors(model: string, ids: readonly string[], rows: ReadonlyArray<ArrayLike<number>>): Uint8Array
export function l2normalize(vector: ArrayLike<number>): Float32Array
export function searchVectors(index: VectorIndex, query: ArrayLike<number>, k: number): VectorMatch[]
export function searchVectorSets(indexes: ReadonlyArray<VectorIndex | undefined>, query: ArrayLike<number>, k: number): VectorMatch[]
