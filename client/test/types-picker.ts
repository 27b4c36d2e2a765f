// Compiled by `tsc --noEmit -p client/tsconfig.json`: uses every export of
// @emojisearch/client/picker the way client/README.md documents it.
import {
  EmojiSearchPicker, localeOf, pickerStrings, isRTL, PICKER_LOCALES, STORE_KEY, createStore, type EmojiClickDetail, type PickSource,
} from '@emojisearch/client/picker'

const picker = document.createElement('emoji-search-picker')
const same: EmojiSearchPicker = picker
picker.setAttribute('locale', localeOf('pt-BR'))
picker.addEventListener('emoji-click', (ev) => {
  const d: EmojiClickDetail = ev.detail
  const text: string = d.unicode + d.label + d.hexcode + d.emoji.id
  const tone: number = d.skinTone
  const from: PickSource = d.source
  console.log(text, tone, from, same.loaded, same.engine?.packVersion, same.state?.status, same.skinTone)
})
const strings = pickerStrings('ar')
const tones: string[] = strings.tones
const store = createStore(localStorage)
store.use('1F600')
const ids: string[] = store.recent()
console.log(tones, ids, store.tone, isRTL('ar'), PICKER_LOCALES.length, STORE_KEY)
