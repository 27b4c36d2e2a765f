// Word lists of the ranking rules (Go: engine/internal/index/stop.go): per
// locale function words, gender words and flag words, normalized as queries
// are. Built on first use.
import { normalize } from './text.js'

const STOP = {
  en: 'a an the of in on at to for from with by and or but is are am was be been it its i me my you your we our they he she him her his this that so very too just really much such as do did does not im ur u s t d ll re ve m',
  es: 'el la los las un una unos unas de del al a en con por para y o que es son soy estoy esta mi mis tu tus su sus muy tan lo le me se',
  fr: 'le la les un une des de du au aux a en dans avec pour par et ou que qui est suis es c ce mon ma mes ton ta tes son sa ses tres trop je tu il elle on nous vous d l j n s t qu m',
  pt: 'o a os as um uma de do da dos das no na nos nas em com por para e ou que e sou estou esta meu minha teu tua seu sua muito tao me te se',
  id: 'di ke dari dan yang itu ini untuk dengan pada atau adalah aku saya kamu dia kita sangat sekali banget nya lagi sih deh',
  tr: 've bir bu su o de da ile icin mi mu cok en ben sen biz',
  ru: 'и в во на с со к ко по за из у о об от до а но или это я ты мы вы он она мой моя моё мои очень так же ли не',
  hi: 'का की के है हैं में को से और पर यह वह मैं तुम आप मेरा मेरी बहुत ही भी तो ka ki ke hai mein ko se aur bahut',
  bn: 'এর এবং ও আর কে তে আমি তুমি আপনি আমার তোমার খুব যে এই সেই হয় না',
  ar: 'في من على الى عن و او ان هذا هذه انا انت هو هي جدا مع يا ما',
  zh: '的 了 是 很 吗 呢 吧 啊 在 和 也 就 都 太 好像',
}
const NOT_STOP = { fr: ['the'], es: ['te'] }
const GENDER = 'woman women man men girl boy female male lady guy she he her him ' +
  'mujer mujeres hombre hombres chica chico nina nino femenino masculino femme femmes homme hommes fille garcon ' +
  'mulher mulheres homem homens menina menino wanita perempuan pria laki cewek cowok kadin erkek kiz oglan ' +
  'женщина женщины мужчина мужчины девушка девочка парень мальчик महिला औरत पुरुष आदमी लड़की लड़का ' +
  'মহিলা নারী পুরুষ মেয়ে ছেলে امرأة امراة رجل بنت ولد فتاة'
const FLAGS = 'flag flags bandera banderas drapeau drapeaux bandeira bendera bayrak bayragi флаг флаги झंडा ध्वज পতাকা علم 旗 国旗'

let stop, gender, flags
const set = (words) => new Set(words.split(' ').map((w) => normalize(w, 0)))

/** stopLocales maps a normalized function word to the locales it is one in. */
export function stopLocales(word) {
  if (!stop) {
    stop = new Map()
    for (const loc in STOP) for (const w of STOP[loc].split(' ')) {
      const n = normalize(w, 0)
      stop.set(n, [...(stop.get(n) || []), loc])
    }
  }
  return stop.get(word)
}
export const notStop = (locale, word) => !!NOT_STOP[locale]?.includes(word)
export const namesGender = (word) => (gender || (gender = set(GENDER))).has(word) || /[女男]/.test(word)
export const flagWord = (word) => (flags || (flags = set(FLAGS))).has(word)
