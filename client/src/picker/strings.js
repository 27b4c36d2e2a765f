// The picker's UI strings in the 11 locales of the packs, written by us.
// Category names are not here: they come with each locale's core pack
// (engine.groupLabel; packs/groupnames.go), one source for every UI.
// Counts are written as "label: n" so no locale needs plural rules.
// Fields: search (placeholder and the box's name), recent, count, none,
// tone (the swatch button), tones (default, light ... dark), categories,
// loading, failed.
const T = {
  en: ['Search emoji', 'Frequently used', 'Results: {n}', 'No emoji found', 'Skin tone', 'Default|Light|Medium-light|Medium|Medium-dark|Dark', 'Categories', 'Loading…', 'Emoji could not be loaded'],
  zh: ['搜索表情符号', '常用', '结果：{n}', '没有找到表情符号', '肤色', '默认|浅肤色|中等浅肤色|中等肤色|中等深肤色|深肤色', '类别', '正在加载…', '无法加载表情符号'],
  hi: ['इमोजी खोजें', 'अक्सर इस्तेमाल किए गए', 'परिणाम: {n}', 'कोई इमोजी नहीं मिला', 'त्वचा का रंग', 'डिफ़ॉल्ट|हल्का|मध्यम-हल्का|मध्यम|मध्यम-गहरा|गहरा', 'श्रेणियाँ', 'लोड हो रहा है…', 'इमोजी लोड नहीं हो सके'],
  es: ['Buscar emoji', 'Usados con frecuencia', 'Resultados: {n}', 'No se encontró ningún emoji', 'Tono de piel', 'Predeterminado|Claro|Claro medio|Medio|Oscuro medio|Oscuro', 'Categorías', 'Cargando…', 'No se pudieron cargar los emoji'],
  fr: ['Rechercher un emoji', 'Utilisés fréquemment', 'Résultats : {n}', 'Aucun emoji trouvé', 'Teint', 'Par défaut|Clair|Moyennement clair|Moyen|Moyennement foncé|Foncé', 'Catégories', 'Chargement…', 'Impossible de charger les emoji'],
  ar: ['ابحث عن رمز تعبيري', 'الأكثر استخدامًا', 'النتائج: {n}', 'لم يُعثر على رموز تعبيرية', 'لون البشرة', 'افتراضي|فاتح|فاتح متوسط|متوسط|داكن متوسط|داكن', 'الفئات', 'جارٍ التحميل…', 'تعذّر تحميل الرموز التعبيرية'],
  bn: ['ইমোজি খুঁজুন', 'প্রায়ই ব্যবহৃত', 'ফলাফল: {n}', 'কোনো ইমোজি পাওয়া যায়নি', 'ত্বকের রং', 'ডিফল্ট|হালকা|মাঝারি-হালকা|মাঝারি|মাঝারি-গাঢ়|গাঢ়', 'বিভাগ', 'লোড হচ্ছে…', 'ইমোজি লোড করা যায়নি'],
  pt: ['Pesquisar emoji', 'Usados com frequência', 'Resultados: {n}', 'Nenhum emoji encontrado', 'Tom de pele', 'Padrão|Claro|Médio-claro|Médio|Médio-escuro|Escuro', 'Categorias', 'Carregando…', 'Não foi possível carregar os emoji'],
  ru: ['Поиск эмодзи', 'Часто используемые', 'Найдено: {n}', 'Эмодзи не найдены', 'Оттенок кожи', 'Обычный|Светлый|Светлее среднего|Средний|Темнее среднего|Тёмный', 'Категории', 'Загрузка…', 'Не удалось загрузить эмодзи'],
  id: ['Cari emoji', 'Sering digunakan', 'Hasil: {n}', 'Emoji tidak ditemukan', 'Warna kulit', 'Bawaan|Terang|Agak terang|Sedang|Agak gelap|Gelap', 'Kategori', 'Memuat…', 'Emoji tidak dapat dimuat'],
  tr: ['Emoji ara', 'Sık kullanılanlar', 'Sonuç: {n}', 'Emoji bulunamadı', 'Ten rengi', 'Varsayılan|Açık|Orta açık|Orta|Orta koyu|Koyu', 'Kategoriler', 'Yükleniyor…', 'Emojiler yüklenemedi'],
}
const KEYS = ['search', 'recent', 'count', 'none', 'tone', 'tones', 'categories', 'loading', 'failed']

/** PICKER_LOCALES: the locales the picker speaks (those of the packs). */
export const PICKER_LOCALES = /* @__PURE__ */ Object.freeze(Object.keys(T))

/** pickerStrings are the UI strings of a locale tag ("pt-BR" is pt), English for another. */
export function pickerStrings(tag) {
  const row = T[String(tag || '').toLowerCase().split(/[-_]/)[0]] || T.en
  const out = {}
  KEYS.forEach((k, i) => { out[k] = k === 'tones' ? row[i].split('|') : row[i] })
  return out
}

/** isRTL: the picker lays a locale out right to left (Arabic of the 11). */
export const isRTL = (tag) => /^(ar|fa|he|ur)\b/i.test(String(tag || ''))
