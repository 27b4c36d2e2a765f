package packs

// groupNames are the 10 emojibase group labels (group 0..9: smileys &
// emotion, people & body, components, animals & nature, food & drink,
// travel & places, activities, objects, symbols, flags) in each locale,
// written by us for a picker's category tabs and headings. emojibase's
// messages.json, the earlier source, lacks ar, id and tr (English showed
// instead) and is wrong in others: pt "comutadores" (switches) for flags,
// ru "смайлики и люди" for smileys, zh mixing traditional characters
// (食物飲料, 旅遊地點) with a wrong "人的符号" for symbols.
var groupNames = map[string][10]string{
	"en": {"Smileys & emotion", "People & body", "Components", "Animals & nature", "Food & drink", "Travel & places", "Activities", "Objects", "Symbols", "Flags"},
	"zh": {"笑脸和情感", "人物和身体", "组件", "动物和自然", "食物和饮料", "旅行和地点", "活动", "物品", "符号", "旗帜"},
	"hi": {"स्माइली और भावनाएँ", "लोग और शरीर", "घटक", "जानवर और प्रकृति", "खाना और पेय", "यात्रा और जगहें", "गतिविधियाँ", "वस्तुएँ", "प्रतीक", "झंडे"},
	"es": {"Caras y emociones", "Personas y cuerpo", "Componentes", "Animales y naturaleza", "Comida y bebida", "Viajes y lugares", "Actividades", "Objetos", "Símbolos", "Banderas"},
	"fr": {"Smileys et émotions", "Personnes et corps", "Composants", "Animaux et nature", "Nourriture et boissons", "Voyages et lieux", "Activités", "Objets", "Symboles", "Drapeaux"},
	"ar": {"الوجوه والمشاعر", "الأشخاص والجسم", "المكونات", "الحيوانات والطبيعة", "الطعام والشراب", "السفر والأماكن", "الأنشطة", "الأشياء", "الرموز", "الأعلام"},
	"bn": {"স্মাইলি ও আবেগ", "মানুষ ও শরীর", "উপাদান", "প্রাণী ও প্রকৃতি", "খাবার ও পানীয়", "ভ্রমণ ও স্থান", "কার্যকলাপ", "বস্তু", "প্রতীক", "পতাকা"},
	"pt": {"Carinhas e emoções", "Pessoas e corpo", "Componentes", "Animais e natureza", "Comida e bebida", "Viagens e lugares", "Atividades", "Objetos", "Símbolos", "Bandeiras"},
	"ru": {"Смайлики и эмоции", "Люди и тело", "Компоненты", "Животные и природа", "Еда и напитки", "Путешествия и места", "Занятия", "Предметы", "Символы", "Флаги"},
	"id": {"Smiley & emosi", "Orang & tubuh", "Komponen", "Hewan & alam", "Makanan & minuman", "Perjalanan & tempat", "Aktivitas", "Objek", "Simbol", "Bendera"},
	"tr": {"Suratlar ve duygular", "İnsanlar ve vücut", "Bileşenler", "Hayvanlar ve doğa", "Yiyecek ve içecek", "Seyahat ve yerler", "Etkinlikler", "Nesneler", "Semboller", "Bayraklar"},
}

// groupLabels are the core pack's `groups` of a locale: our table, English
// for a locale it lacks.
func groupLabels(loc string) []string {
	names, ok := groupNames[loc]
	if !ok {
		names = groupNames["en"]
	}
	return names[:]
}
