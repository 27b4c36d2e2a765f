package privacy

import (
	"strings"

	"github.com/emojisearch/emojisearch/engine"
)

// blocklist holds, per locale, words and phrases that only come with
// personal data (passwords, identity and account numbers, addresses): a
// query naming one is about someone's data, not about an emoji. English
// applies in every locale, since people mix it in. Phrases are matched on
// whole normalized words; in Chinese, which has no spaces, as substrings.
var blocklist = map[string][]string{
	"en": {"password", "passcode", "pin code", "ssn", "social security", "credit card number", "card number",
		"bank account", "account number", "routing number", "iban", "passport number", "driver license",
		"drivers license", "home address", "my address", "phone number", "cvv", "date of birth", "tax id"},
	"tr": {"sifre", "parola", "tc kimlik", "kimlik no", "kimlik numarasi", "hesap numarasi", "kart numarasi",
		"telefon numarasi", "ev adresi", "adresim", "dogum tarihi"},
	"es": {"contrasena", "clave bancaria", "numero de cuenta", "numero de tarjeta", "dni", "nie",
		"pasaporte numero", "numero de telefono", "mi direccion", "fecha de nacimiento", "seguridad social"},
	"fr": {"mot de passe", "numero de compte", "numero de carte", "carte bancaire numero", "numero de securite sociale",
		"mon adresse", "numero de telephone", "date de naissance", "rib"},
	"pt": {"senha", "cpf", "cnpj", "numero da conta", "numero do cartao", "meu endereco", "numero de telefone",
		"data de nascimento", "rg numero"},
	"ru": {"пароль", "номер карты", "номер счета", "номер счёта", "паспорт серия", "номер паспорта", "мой адрес",
		"номер телефона", "дата рождения", "снилс", "инн"},
	"id": {"kata sandi", "sandi", "nomor rekening", "no rek", "nomor kartu", "nik", "ktp", "alamat saya",
		"nomor telepon", "no hp", "tanggal lahir"},
	"zh": {"密码", "身份证", "银行卡号", "卡号", "账号", "帐号", "手机号", "电话号码", "我的地址", "住址", "出生日期"},
	"ar": {"كلمة السر", "كلمة المرور", "رقم الحساب", "رقم البطاقة", "رقم الهوية", "جواز السفر رقم", "عنواني",
		"رقم الهاتف", "تاريخ الميلاد"},
	"hi": {"पासवर्ड", "आधार", "पैन कार्ड", "खाता संख्या", "कार्ड नंबर", "मेरा पता", "फोन नंबर", "मोबाइल नंबर", "जन्म तिथि"},
	"bn": {"পাসওয়ার্ড", "জাতীয় পরিচয়পত্র", "অ্যাকাউন্ট নম্বর", "কার্ড নম্বর", "আমার ঠিকানা", "ফোন নম্বর",
		"মোবাইল নম্বর", "জন্ম তারিখ"},
}

// blockIndex is blocklist normalized the way queries are.
var blockIndex = func() map[string][]string {
	out := make(map[string][]string, len(blocklist))
	for loc, words := range blocklist {
		for _, w := range words {
			out[loc] = append(out[loc], engine.Normalize(w, 0))
		}
	}
	return out
}()

func blocklisted(q, locale string) bool {
	n := " " + engine.Normalize(q, 0) + " "
	for _, loc := range []string{"en", locale} {
		for _, w := range blockIndex[loc] {
			if loc == "zh" && strings.Contains(n, w) {
				return true
			}
			if strings.Contains(n, " "+w+" ") {
				return true
			}
		}
		if locale == "en" {
			break
		}
	}
	return false
}
