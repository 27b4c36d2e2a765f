// @emojisearch/client/picker: the <emoji-search-picker> element. Importing
// this module defines the element (once) where custom elements exist.
import { EmojiSearchPicker } from './src/picker/element.js'

export { EmojiSearchPicker, localeOf } from './src/picker/element.js'
export { pickerStrings, isRTL, PICKER_LOCALES } from './src/picker/strings.js'
export { createStore, STORE_KEY } from './src/picker/store.js'

if (globalThis.customElements && !customElements.get('emoji-search-picker')) customElements.define('emoji-search-picker', EmojiSearchPicker)
