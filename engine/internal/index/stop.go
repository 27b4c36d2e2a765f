package index

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/emojisearch/emojisearch/engine/internal/textnorm"
)

// stopWords are the function words of each pack locale: in a query of
// several words they carry little meaning, so they must not outrank the
// content words ("in love" is about love, not the flag of India through
// its code "in"). Lists are short on purpose: only words that are never an
// emoji's meaning on their own in a longer query. They are normalized like
// queries when the package loads. English applies to every search (English
// phrases are always searched); a locale's list applies when the locale is
// searched.
var stopWords = map[string]string{
	"en": "a an the of in on at to for from with by and or but is are am was be been it its i me my you your we our they he she him her his this that so very too just really much such as do did does not im ur u s t d ll re ve m",
	"es": "el la los las un una unos unas de del al a en con por para y o que es son soy estoy esta mi mis tu tus su sus muy tan lo le me se",
	"fr": "le la les un une des de du au aux a en dans avec pour par et ou que qui est suis es c ce mon ma mes ton ta tes son sa ses tres trop je tu il elle on nous vous d l j n s t qu m",
	"pt": "o a os as um uma de do da dos das no na nos nas em com por para e ou que e sou estou esta meu minha teu tua seu sua muito tao me te se",
	"id": "di ke dari dan yang itu ini untuk dengan pada atau adalah aku saya kamu dia kita sangat sekali banget nya lagi sih deh",
	"tr": "ve bir bu su o de da ile icin mi mu cok en ben sen biz",
	"ru": "и в во на с со к ко по за из у о об от до а но или это я ты мы вы он она мой моя моё мои очень так же ли не",
	"hi": "का की के है हैं में को से और पर यह वह मैं तुम आप मेरा मेरी बहुत ही भी तो ka ki ke hai mein ko se aur bahut",
	"bn": "এর এবং ও আর কে তে আমি তুমি আপনি আমার তোমার খুব যে এই সেই হয় না",
	"ar": "في من على الى عن و او ان هذا هذه انا انت هو هي جدا مع يا ما",
	"zh": "的 了 是 很 吗 呢 吧 啊 在 和 也 就 都 太 好像",
}

// notStop lists words of a locale that an English stop word spells once
// accents are folded: French "thé" (tea) is "the".
var notStop = map[string]string{"fr": "the", "es": "te"}

// genderWords name a gender in a pack locale (normalized like queries;
// Han: any word holding 女 or 男). With one in the query, a family's
// gender members follow its representative at once instead of after the
// first places: the query asks for a gender.
var genderWords = wordSet(
	"woman women man men girl boy female male lady guy she he her him " +
		"mujer mujeres hombre hombres chica chico nina nino femenino masculino " +
		"femme femmes homme hommes fille garcon " +
		"mulher mulheres homem homens menina menino " +
		"wanita perempuan pria laki cewek cowok " +
		"kadin erkek kiz oglan " +
		"женщина женщины мужчина мужчины девушка девочка парень мальчик " +
		"महिला औरत पुरुष आदमी लड़की लड़का " +
		"মহিলা নারী পুরুষ মেয়ে ছেলে " +
		"امرأة امراة رجل بنت ولد فتاة")

func wordSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[textnorm.Normalize(w, 0)] = true
	}
	return out
}

// flagWords say "flag" in a pack locale: a query holding one asks for
// flags, which may then answer the other words across phrases ("irish
// flag").
var flagWords = wordSet("flag flags bandera banderas drapeau drapeaux bandeira bendera bayrak bayragi bayraklar флаг флаги झंडा ध्वज পতাকা علم العلم اعلام الاعلام 旗 国旗")

// namesGender reports a query unit that names a gender.
func namesGender(word string) bool {
	return genderWords[word] || strings.ContainsAny(word, "女男")
}

// stopLocales maps a normalized stop word to the locales listing it.
var stopLocales = func() map[string][]string {
	out := map[string][]string{}
	for loc, words := range stopWords {
		for _, w := range strings.Fields(words) {
			n := textnorm.Normalize(w, 0)
			out[n] = append(out[n], loc)
		}
	}
	return out
}()

// stopUnitWeight is the weight of a stop word among the units of a query
// that also holds content words (content units weigh about 1).
const stopUnitWeight = 0.2

// isStop reports a function word of English or of a locale searched (mask),
// unless it is a content word of the preferred locale loc (-1: none).
func (ix *Index) isStop(word string, mask uint64, loc int) bool {
	locs, ok := stopLocales[word]
	if !ok {
		return false
	}
	if loc >= 0 && slices.Contains(strings.Fields(notStop[ix.Locales[loc]]), word) {
		return false
	}
	for si, l := range ix.Locales {
		if mask&(1<<si) != 0 {
			if slices.Contains(locs, l) {
				return true
			}
		}
	}
	return false
}

// alphabetic reports a word written in an alphabet whose spelling slips are
// single-letter edits (Latin, Cyrillic, Greek). Typo tolerance and
// shortened words apply only there: in Devanagari, Bengali, Arabic or Han a
// one-character edit is often another word (शुक्रिया "thanks" is one edit
// from शुक्ल "bright lunar fortnight"), and a weak partial match is worse
// than no match, which sends the query to the meaning tier.
func alphabetic(word string) bool {
	r, _ := utf8.DecodeRuneInString(word)
	// Latin (with Extended-A/B and Additional), Greek, Cyrillic: plain ranges,
	// so the Worker links no script tables.
	return r < 0x250 || r >= 0x370 && r < 0x530 || r >= 0x1E00 && r < 0x1F00
}

// isCountryFlag reports a flag of a country or region (regional-indicator
// pair, or a subdivision tag sequence such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿): it is answered only when the
// query names the country, region or code on its own, never for a word of
// a longer query ("in love" is not 🇮🇳).
func isCountryFlag(id string) bool {
	return strings.HasPrefix(id, "1F1E") || strings.HasPrefix(id, "1F1F") || strings.HasPrefix(id, "1F3F4-E00")
}
