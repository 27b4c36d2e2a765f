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
	"en": "a an the of in on at to for from with by and or but is are am was were be been being it its i me my you your we us our they them their he she him her his this that these those there here so very too just really much such as do did does have has had would could should im ive ur u s t d ll re ve m lets gonna wanna gotta what when where which who how if then than into about some any again",
	"es": "el la los las un una unos unas de del al a en con por para y o que es son soy eres somos estoy estas esta estamos estan fue era mi mis tu tus su sus muy tan lo le les me se nos yo el ella ellos ellas nosotros usted ustedes voy vas va vamos van hay he has ha hemos han tengo tienes tiene ya tambien pero como cuando donde este esto ese eso aqui otra otro vez",
	"fr": "le la les un une des de du au aux a en dans avec pour par et ou que qui est suis es sommes etes sont etait c ce cet cette ces ca cela mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs tres trop je tu il elle ils elles on nous vous moi toi lui me te se y ai as avons avez ont vais vas va allons vont d l j n s t qu m ne jai encore dun dune cest quil",
	"pt": "o a os as um uma de do da dos das no na nos nas em com por para e ou que sou es somos sao estou esta estamos estao foi era meu minha meus minhas teu tua seu sua muito tao me te se lhe eu voce vc ele ela eles elas vou vai vamos vao tenho tem ja tambem mas como quando onde isso isto esse essa aqui",
	"id": "di ke dari dan yang itu ini untuk dengan pada atau adalah aku saya kamu anda dia ia kita kami mereka sangat sekali banget nya lagi sih deh akan sudah udah juga tapi kalau ayo yuk gue gw lu mau ya",
	"tr": "ve bir bu su o de da ile icin mi mu cok en ben sen biz siz onlar beni bana benim seni sana senin onu ona onun bizim sizin ama gibi daha hadi yine",
	"ru": "и в во на с со к ко по за из у о об от до а но или это я ты мы вы он она они меня мне мной тебя тебе тобой нас нам вас вам его ее ему ей их им мой моя моё мои твой твоя наш был была было были буду будет бы уже еще тоже как что чтобы где когда тут там вот очень так же ли не давай давайте пойдем опять снова",
	"hi": "का की के है हैं में को से और पर यह वह ये वे मैं मुझे मुझको मेरा मेरी मेरे हम हमें हमारा हमारी तुम तुम्हें तुम्हारा तुम्हारी आप आपका आपकी उसका उसकी उसे था थी थे हूँ हूं हो गया गई गए रहा रही रहे बहुत ही भी तो ka ki ke hai mein ko se aur bahut mujhe mera meri hum tum aap hoon tha thi raha rahi gaya चलो लिए",
	"bn": "এর এবং ও আর কে তে আমি আমাকে আমার আমরা আমাদের তুমি তোমাকে তোমার তুই তোর আপনি আপনার সে তার তাকে খুব যে এই সেই এটা ওটা হয় ছিল ছিলাম আছি আছে হচ্ছে হবে চলো না ami amar tumi tomar",
	"ar": "في من على الى عن و او ان هذا هذه ذلك تلك انا انت انتي نحن هم هو هي لي لك له لها كان كانت جدا مع يا ما هنا هناك",
	"zh": "的 了 是 很 吗 呢 吧 啊 在 和 也 就 都 太 好像 我 他 她 它 我们 他们 这 那 这个 那个 给 把 被 着 要 需要",
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
