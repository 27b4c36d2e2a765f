package packfmt

// Locale is a language the packs cover.
type Locale struct {
	Code string // the pack locale: a BCP 47 primary language subtag
	// Aliases are the ISO 639-2/3 codes and deprecated tags of the language
	// that search reads as Code (what a full BCP 47 library would
	// canonicalise; a table this small keeps golang.org/x/text/language's
	// tables, about 0.1 MB gzip, out of the Worker).
	Aliases []string
}

// Registry is the one list of the pack locales, in the order spec 1 lists
// them, English first. Every other list of locales derives from it: the Go
// ones by reading it, the JavaScript and document copies checked against it
// by internal/repocheck. Adding a locale: README.md, "Adding a locale".
var Registry = []Locale{
	{"en", []string{"eng"}},
	{"zh", []string{"zho", "chi"}},
	{"hi", []string{"hin"}},
	{"es", []string{"spa"}},
	{"ar", []string{"ara"}},
	{"fr", []string{"fra", "fre"}},
	{"bn", []string{"ben"}},
	{"pt", []string{"por"}},
	{"ru", []string{"rus"}},
	{"id", []string{"ind", "in"}},
	{"tr", []string{"tur"}},
}

// Locales are the codes of Registry, English first.
var Locales = func() []string {
	out := make([]string, len(Registry))
	for i, l := range Registry {
		out[i] = l.Code
	}
	return out
}()

// LanguageAliases maps every alias of Registry to its locale's code.
func LanguageAliases() map[string]string {
	out := map[string]string{}
	for _, l := range Registry {
		for _, a := range l.Aliases {
			out[a] = l.Code
		}
	}
	return out
}
