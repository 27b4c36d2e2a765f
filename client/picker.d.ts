// Types of @emojisearch/client/picker: the <emoji-search-picker> element.
import type { AliasEngine, EmojiEntry, SessionState } from './index.js'

/** Where a picked emoji came from: the grid, the "Frequently used" row, or a search result's source. */
export type PickSource = 'grid' | 'recent' | 'alias' | 'semantic' | 'custom' | 'culture'

/** The detail of `emoji-click` (the event name emoji-picker-element uses). */
export interface EmojiClickDetail {
  emoji: EmojiEntry
  /** The emoji with the skin tone applied; `:shortcode:` for a custom emoji. */
  unicode: string
  /** The emoji's name in the picker's locale. */
  label: string
  hexcode: string
  source: PickSource
  /** 0 (none) to 5; 0 for an emoji without skin tones. */
  skinTone: number
}

export interface PickerStrings {
  search: string
  recent: string
  count: string
  none: string
  tone: string
  tones: string[]
  categories: string
  loading: string
  failed: string
}

/**
 * <emoji-search-picker endpoint locale pack-version set key region theme semantic shards culture>.
 * Events: `emoji-click` (EmojiClickDetail), `emoji-search-ready`, `emoji-search-error` ({ error }).
 */
export declare class EmojiSearchPicker extends HTMLElement {
  static readonly observedAttributes: string[]
  /** true once the data is in and the first view drawn. */
  loaded: boolean
  readonly engine: AliasEngine | undefined
  readonly state: SessionState | undefined
  readonly skinTone: number
}

export function localeOf(tag: string | null | undefined): string
export function pickerStrings(tag: string | null | undefined): PickerStrings
export function isRTL(tag: string | null | undefined): boolean
export const PICKER_LOCALES: readonly string[]
export const STORE_KEY: string
export function createStore(storage?: Pick<Storage, 'getItem' | 'setItem'>): {
  tone: number
  recent(): string[]
  use(id: string, now?: number): void
}

declare global {
  interface HTMLElementTagNameMap { 'emoji-search-picker': EmojiSearchPicker }
  interface HTMLElementEventMap { 'emoji-click': CustomEvent<EmojiClickDetail> }
}
