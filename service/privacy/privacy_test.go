package privacy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/emojisearch/emojisearch/engine"
	"github.com/emojisearch/emojisearch/engine/packfmt"
)

type tc struct{ locale, query, reason string }

// personal queries of every locale, with the rule that must refuse them.
var personal = []tc{
	{"en", "john.smith@gmail.com", Email},
	{"en", "mail me at jane_doe99@yahoo.co.uk", Email},
	{"tr", "ayse.yilmaz@hotmail.com.tr", Email},
	{"zh", "我的邮箱 wang.li@163.com", Email},
	{"ru", "пишите ivan@yandex.ru", Email},
	{"ar", "ahmed＠example.sa", Email},
	{"en", "@elonmusk", Handle},
	{"es", "sigueme en @maria_garcia", Handle},
	{"pt", "@joao.silva perfil", Handle},
	{"hi", "@rahul_sharma99", Handle},
	{"en", "https://example.com/reset?token=abc", Web},
	{"fr", "www.lemonde.fr", Web},
	{"ru", "shop.example.ru/cart", Web},
	{"id", "tokopedia.com", Web},
	{"bn", "prothomalo.com খবর", Web},
	{"en", "john doe example com", Web}, // a normalized email
	{"en", "+1 415 555 2671", Phone},
	{"en", "+44 20 7946 0958", Phone},
	{"fr", "+33 6 12 34 56 78", Phone},
	{"es", "+34 612 345 678", Phone},
	{"tr", "+90 532 123 45 67", Phone},
	{"ru", "+7 (912) 345-67-89", Phone},
	{"id", "+62 812-3456-7890", Phone},
	{"hi", "+91 98765 43210", Phone},
	{"ar", "+966 50 123 4567", Phone},
	{"bn", "+880 1712-345678", Phone},
	{"zh", "+86 138 0013 8000", Phone},
	{"pt", "+55 11 91234-5678", Phone},
	{"en", "call 415-555-2671", Number},
	{"fr", "06 12 34 56 78", Number},
	{"tr", "0532 123 45 67", Number},
	{"zh", "13800138000", Number},
	{"hi", "9876543210 पर कॉल करें", Number},
	{"ar", "٠٥٠١٢٣٤٥٦٧", Number},
	{"bn", "০১৭১২৩৪৫৬৭৮", Number},
	{"ru", "8 912 345 67 89", Number},
	{"en", "4111 1111 1111 1111", Card},
	{"es", "tarjeta 4012888888881881", Card},
	{"pt", "5555-5555-5555-4444", Card},
	{"en", "DE89370400440532013000", IBAN},
	{"fr", "fr1420041010050500013m02606", IBAN},
	{"en", "90210", Postal},
	{"es", "28013 madrid", Postal},
	{"tr", "34000 istanbul", Postal},
	{"ru", "101000 москва", Postal},
	{"hi", "110001 दिल्ली", Postal},
	{"en", "sw1a 1aa", Postal},
	{"en", "m1 1ae", Postal},
	{"en", "k1a 0b1", Postal},
	{"pt", "01310-100", Number},
	{"en", "user48213", UserID},
	{"en", "id: 5521", UserID},
	{"id", "uid 83721", UserID},
	{"tr", "customer#9981", UserID},
	{"en", "a3f5c9e1b2d4f6a8c0e2", Token},
	{"en", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", Token},
	{"en", "eyjhbgcioijiuzi1nij9 eyjzdwiioiixin0", Token},
	{"en", "sk_live_51HG8vDKj3nL0x2QwEr7", Token},
	{"en", "dGhpcyBpcyBhIHNlY3JldDEyMw==", Token},
	{"en", "my password is hunter", Blocked},
	{"tr", "şifre unuttum", Blocked},
	{"es", "mi contraseña", Blocked},
	{"fr", "mot de passe oublié", Blocked},
	{"pt", "meu cpf", Blocked},
	{"ru", "мой пароль", Blocked},
	{"id", "nomor rekening bca", Blocked},
	{"zh", "忘记密码", Blocked},
	{"ar", "نسيت كلمة السر", Blocked},
	{"hi", "मेरा पता बताओ", Blocked},
	{"bn", "আমার ঠিকানা", Blocked},
	{"zh", "身份证丢了", Blocked},
	{"id", "social security card", Blocked},
}

// ordinary queries of every locale: emoji searches, some with numbers.
var ordinary = []tc{
	{"en", "cat", ""}, {"en", "happy birthday", ""}, {"en", "so tired after work", ""}, {"en", "100", ""},
	{"en", "top 10", ""}, {"en", "24/7", ""}, {"en", "4th of july", ""}, {"en", "2024", ""}, {"en", "1st place medal", ""},
	{"en", "9:30 meeting", ""}, {"en", "thumbs up", ""}, {"en", "covid 19", ""}, {"en", "new year 2025", ""},
	{"en", "red heart", ""}, {"en", "i love you", ""}, {"en", "#1 fan", ""}, {"en", "a+ grade", ""},
	{"en", "email", ""}, {"en", "phone", ""}, {"en", "e-mail", ""}, {"en", "at sign", ""}, {"en", "dot com", ""}, {"en", "ribbon", ""},
	{"tr", "kedi", ""}, {"tr", "iyi ki doğdun", ""}, {"tr", "teşekkürler", ""}, {"tr", "çok yorgunum", ""}, {"tr", "23 nisan", ""},
	{"es", "gato", ""}, {"es", "feliz cumpleaños", ""}, {"es", "te quiero", ""}, {"es", "fuego", ""}, {"es", "5 de mayo", ""},
	{"fr", "chat", ""}, {"fr", "joyeux anniversaire", ""}, {"fr", "je t'aime", ""}, {"fr", "14 juillet", ""}, {"fr", "merci beaucoup", ""},
	{"pt", "gato", ""}, {"pt", "parabéns", ""}, {"pt", "obrigado", ""}, {"pt", "saudade", ""}, {"pt", "copa 2026", ""},
	{"ru", "кот", ""}, {"ru", "с днём рождения", ""}, {"ru", "спасибо", ""}, {"ru", "8 марта", ""}, {"ru", "люблю тебя", ""},
	{"id", "kucing", ""}, {"id", "selamat ulang tahun", ""}, {"id", "terima kasih", ""}, {"id", "17 agustus", ""}, {"id", "lebaran", ""},
	{"zh", "猫", ""}, {"zh", "生日快乐", ""}, {"zh", "谢谢", ""}, {"zh", "春节", ""}, {"zh", "666", ""},
	{"ar", "قطة", ""}, {"ar", "عيد ميلاد سعيد", ""}, {"ar", "شكرا", ""}, {"ar", "رمضان كريم", ""}, {"ar", "حب", ""},
	{"hi", "बिल्ली", ""}, {"hi", "जन्मदिन मुबारक", ""}, {"hi", "धन्यवाद", ""}, {"hi", "दिवाली", ""}, {"hi", "15 अगस्त", ""},
	{"bn", "বিড়াল", ""}, {"bn", "শুভ জন্মদিন", ""}, {"bn", "ধন্যবাদ", ""}, {"bn", "পহেলা বৈশাখ", ""}, {"bn", "২১ ফেব্রুয়ারি", ""},
}

func TestPersonal(t *testing.T) {
	assert.GreaterOrEqual(t, len(personal), 60)
	for _, c := range personal {
		t.Run(c.locale+"/"+c.query, func(t *testing.T) {
			reason, ok := Personal(c.query, c.locale)
			assert.True(t, ok)
			assert.Equal(t, c.reason, reason)
		})
	}
}

func TestOrdinary(t *testing.T) {
	assert.GreaterOrEqual(t, len(ordinary), 60)
	for _, c := range ordinary {
		t.Run(c.locale+"/"+c.query, func(t *testing.T) {
			reason, ok := Personal(c.query, c.locale)
			assert.False(t, ok, reason)
			// The normalized form, which the shard build sees, passes too.
			reason, ok = Personal(engine.Normalize(c.query, 64), c.locale)
			assert.False(t, ok, reason)
		})
	}
}

func TestLocalesCovered(t *testing.T) {
	seen := map[string][2]int{}
	for _, c := range personal {
		n := seen[c.locale]
		n[0]++
		seen[c.locale] = n
	}
	for _, c := range ordinary {
		n := seen[c.locale]
		n[1]++
		seen[c.locale] = n
	}
	for _, loc := range packfmt.Locales {
		assert.Positive(t, seen[loc][0], "personal queries of %s", loc)
		assert.Positive(t, seen[loc][1], "ordinary queries of %s", loc)
	}
	assert.Len(t, blocklist, len(packfmt.Locales), "a blocklist per locale")
}

func TestLuhnAndIBAN(t *testing.T) {
	assert.True(t, luhn([]int{4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}))
	assert.False(t, luhn([]int{4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2}))
	assert.Equal(t, IBAN, iban("gb82west12345698765432"))
	assert.Equal(t, "", iban("gb82west12345698765433"), "mod 97 fails")
}
