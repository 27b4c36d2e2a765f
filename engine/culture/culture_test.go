package culture

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture: a small culture file with one entry of every kind.
func fixture() *File {
	return &File{Format: Format, FormatVersion: FormatVersion, PackVersion: "test", Locale: "pt", From: "2026-11-23", To: "2027-11-22",
		Entries: []Entry{
			{ID: "pt.carnaval", Emoji: "🎭", Hexcode: "1F3AD", Kind: KindRegional, Weight: 0.9, Context: "Carnaval", Triggers: []string{"carnaval", "bloco"}, Regions: []string{"BR"}, Over: []string{"1F483"},
				Windows: []Window{{From: "2027-02-05", To: "2027-02-10"}}},
			{ID: "pt.natal", Emoji: "🎄", Hexcode: "1F384", Kind: KindEvent, Weight: 0.8, Context: "Natal", Triggers: []string{"natal", "feliz natal"},
				Windows: []Window{{From: "2026-12-01", To: "2026-12-26"}}},
			{ID: "pt.papai-noel", Emoji: "🎅", Hexcode: "1F385", Kind: KindSeasonal, Weight: 0.7, Context: "Papai Noel", Triggers: []string{"natal", "papai noel"},
				Windows: []Window{{From: "2026-12-01", To: "2026-12-26"}}},
			{ID: "pt.ok-br", Emoji: "👍", Hexcode: "1F44D", Kind: KindRegional, Weight: 0.6, Context: "👌 é ofensivo no Brasil", Triggers: []string{"ok", "beleza"}, Regions: []string{"BR"}, Over: []string{"1F44C"}},
			{ID: "pt.saudade", Emoji: "🥺", Hexcode: "1F97A", Kind: KindLasting, Weight: 0.5, Context: "Saudade", Triggers: []string{"saudade", "saudades"}},
			{ID: "pt.kkk", Emoji: "😂", Hexcode: "1F602", Kind: KindLasting, Weight: 0.4, Context: "kkkk", Triggers: []string{"kkk", "natal"}},
			{ID: "pt.chimarrao", Emoji: "🧉", Hexcode: "1F9C9", Kind: KindRegional, Weight: 0.6, Context: "Chimarrão", Triggers: []string{"chimarrao"}, Regions: []string{"BR"}},
			{ID: "zh.dragon", Emoji: "🐉", Hexcode: "1F409", Kind: KindLasting, Weight: 0.3, Context: "龙", Triggers: []string{"龙", "龙的传人"}},
		}}
}

func canon(ids ...string) []Result {
	out := make([]Result, len(ids))
	for i, id := range ids {
		out[i] = Result{Emoji: id, ID: id, Score: 1 - float64(i)/100, Source: "alias"}
	}
	return out
}

func ids(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func cul(id string, w float64) Result {
	return Result{Emoji: id, ID: id, Score: w, Source: Source, Field: Field, CultureID: "c." + id, Context: "x"}
}

func TestAssert(t *testing.T) {
	require.NoError(t, Assert(fixture()))
	cases := []struct {
		name string
		edit func(f *File)
		want error
		msg  string
	}{
		{"format", func(f *File) { f.Format = "x" }, ErrFormat, "format"},
		{"version", func(f *File) { f.FormatVersion = 2 }, ErrFormat, "version 2"},
		{"locale", func(f *File) { f.Locale = "de" }, ErrInvalid, `locale "de"`},
		{"duplicate id", func(f *File) { f.Entries[1].ID = "pt.carnaval" }, ErrInvalid, "duplicate id"},
		{"empty id", func(f *File) { f.Entries[1].ID = "" }, ErrInvalid, "id must be"},
		{"hexcode", func(f *File) { f.Entries[1].Hexcode = "1F385" }, ErrInvalid, "does not name"},
		{"weight", func(f *File) { f.Entries[1].Weight = 1.2 }, ErrInvalid, "weight"},
		{"context", func(f *File) { f.Entries[1].Context = " " }, ErrInvalid, "context is empty"},
		{"trigger not normalized", func(f *File) { f.Entries[1].Triggers = []string{"Feliz Natal!"} }, ErrInvalid, `want "feliz natal"`},
		{"no triggers", func(f *File) { f.Entries[1].Triggers = nil }, ErrInvalid, "no triggers"},
		{"kind", func(f *File) { f.Entries[1].Kind = "holiday" }, ErrInvalid, "kind"},
		{"event without windows", func(f *File) { f.Entries[1].Windows = nil }, ErrInvalid, "needs windows"},
		{"regional without scope", func(f *File) { f.Entries[0].Regions = nil }, ErrInvalid, "region scope"},
		{"bad region", func(f *File) { f.Entries[0].Regions = []string{"XX"} }, ErrInvalid, `region "XX"`},
		{"lasting with window", func(f *File) { f.Entries[4].Windows = []Window{{"2027-01-01", "2027-01-02"}} }, ErrInvalid, "lasting"},
		{"window reversed", func(f *File) { f.Entries[1].Windows[0] = Window{"2026-12-26", "2026-12-01"} }, ErrInvalid, "from <= to"},
		{"window bad day", func(f *File) { f.Entries[1].Windows[0] = Window{"2026-02-30", "2026-12-01"} }, ErrInvalid, "must be days"},
		{"window outside", func(f *File) { f.Entries[1].Windows[0] = Window{"2027-11-20", "2027-11-23"} }, ErrInvalid, "outside"},
		{"over on event", func(f *File) { f.Entries[1].Over = []string{"1F44C"} }, ErrInvalid, "lead over"},
		{"file days", func(f *File) { f.To = "2026-01-01" }, ErrInvalid, "from <= to"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fixture()
			c.edit(f)
			err := Assert(f)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.want)
			assert.Contains(t, err.Error(), c.msg)
		})
	}
	t.Run("every problem at once", func(t *testing.T) {
		f := fixture()
		f.Entries[1].Weight, f.Entries[2].Context = -1, ""
		err := Assert(f)
		assert.Contains(t, err.Error(), "weight")
		assert.Contains(t, err.Error(), "context is empty")
	})
}

func TestParse(t *testing.T) {
	b, err := json.Marshal(fixture())
	require.NoError(t, err)
	f, err := Parse(b)
	require.NoError(t, err)
	assert.Equal(t, fixture(), f)
	_, err = Parse([]byte("{"))
	assert.ErrorIs(t, err, ErrFormat)
	_, err = Parse([]byte(`{"format":"emojisearch.pack","formatVersion":1}`))
	assert.ErrorIs(t, err, ErrFormat)
}

func TestIsActiveOn(t *testing.T) {
	f := fixture()
	natal, carnaval, saudade, okBR := f.Entries[1], f.Entries[0], f.Entries[4], f.Entries[3]
	cases := []struct {
		name string
		e    Entry
		day  string
		want bool
	}{
		{"day before window", natal, "2026-11-30", false},
		{"first day inclusive", natal, "2026-12-01", true},
		{"inside", natal, "2026-12-24", true},
		{"last day inclusive", natal, "2026-12-26", true},
		{"day after window", natal, "2026-12-27", false},
		{"regional with window, inside", carnaval, "2027-02-09", true},
		{"regional with window, outside", carnaval, "2027-02-11", false},
		{"lasting always", saudade, "2030-01-01", true},
		{"regional without window always", okBR, "2027-06-01", true},
		{"second window", Entry{Kind: KindEvent, Windows: []Window{{"2026-11-23", "2026-11-25"}, {"2027-11-12", "2027-11-15"}}}, "2027-11-15", true},
		{"event without windows never", Entry{Kind: KindEvent}, "2027-01-01", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, IsActiveOn(c.e, c.day)) })
	}
}

func TestLocalDay(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	la := time.FixedZone("PST", -8*3600)
	cases := []struct {
		name string
		t    time.Time
		loc  *time.Location
		want string
	}{
		{"utc last second", time.Date(2026, 12, 24, 23, 59, 59, 0, time.UTC), time.UTC, "2026-12-24"},
		{"utc midnight", time.Date(2026, 12, 25, 0, 0, 0, 0, time.UTC), time.UTC, "2026-12-25"},
		{"nil is utc", time.Date(2026, 12, 25, 0, 0, 0, 0, time.UTC), nil, "2026-12-25"},
		{"ahead of utc", time.Date(2026, 12, 24, 15, 0, 0, 0, time.UTC), tokyo, "2026-12-25"},
		{"behind utc", time.Date(2026, 12, 25, 5, 0, 0, 0, time.UTC), la, "2026-12-24"},
		{"instant in another zone", time.Date(2026, 12, 25, 8, 0, 0, 0, tokyo), time.UTC, "2026-12-24"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, LocalDay(c.t, c.loc)) })
	}
	// rule 4: the server uses the UTC day, whatever zone the time carries
	assert.Equal(t, "2026-12-24", UTCDay(time.Date(2026, 12, 25, 8, 0, 0, 0, tokyo)))
	assert.Equal(t, "2027-01-01", AddDays("2026-12-31", 1))
}

func TestParseDay(t *testing.T) {
	for _, ok := range []string{"2026-11-23", "2028-02-29"} {
		_, err := ParseDay(ok)
		assert.NoError(t, err, ok)
	}
	for _, bad := range []string{"", "2026-2-3", "2027-02-29", "2026-11-23T00:00:00Z", "23/11/2026"} {
		_, err := ParseDay(bad)
		assert.ErrorIs(t, err, ErrDay, bad)
	}
}

func TestRegionOf(t *testing.T) {
	cases := map[string]string{
		"pt-BR": "BR", "pt_br": "BR", "en": "", "": "", "zh-Hant-TW": "TW", "zh-Hans": "", "es-419": "",
		"en-US-u-ca-gregory": "US", "en-x-us": "", "sr-Latn-RS": "RS", "en-ZZ": "", "EN-gb": "GB",
	}
	for tag, want := range cases {
		t.Run(tag, func(t *testing.T) { assert.Equal(t, want, RegionOf(tag)) })
	}
}

func TestParseRegion(t *testing.T) {
	assert.Equal(t, 249, len(regions))
	for in, want := range map[string]string{"br": "BR", "US": "US", "mx": "MX", "": ""} {
		got, err := ParseRegion(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	for _, bad := range []string{"XX", "ZZ", "EU", "UK", "USA", "419", "b", "AN"} {
		_, err := ParseRegion(bad)
		assert.ErrorIs(t, err, ErrRegion, bad)
	}
}

func TestParseFlag(t *testing.T) {
	for in, want := range map[string]bool{"1": true, "true": true, "0": false, "false": false, "none": false, "": false} {
		got, err := ParseFlag(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"yes", "TRUE", "2", "on"} {
		_, err := ParseFlag(bad)
		assert.ErrorIs(t, err, ErrFlag, bad)
	}
}

func TestMatchCulture(t *testing.T) {
	f := fixture()
	cases := []struct {
		name, query, day, region string
		want                     []string // culture ids, in order
	}{
		{"exact trigger, active", "natal", "2026-12-20", "", []string{"pt.natal", "pt.papai-noel", "pt.kkk"}},
		{"query normalized", "  Feliz NATAL!! ", "2026-12-20", "", []string{"pt.natal", "pt.papai-noel", "pt.kkk"}},
		{"phrase inside query", "feliz natal familia", "2026-12-20", "", []string{"pt.natal", "pt.papai-noel", "pt.kkk"}},
		{"not a whole word", "natalia", "2026-12-20", "", nil},
		{"inactive entries ignored", "natal", "2027-01-10", "", []string{"pt.kkk"}},
		{"regional without region", "carnaval", "2027-02-06", "", nil},
		{"regional out of scope", "carnaval", "2027-02-06", "PT", nil},
		{"regional in scope", "carnaval", "2027-02-06", "BR", []string{"pt.carnaval"}},
		{"regional region case-insensitive", "bloco", "2027-02-06", "br", []string{"pt.carnaval"}},
		{"regional in scope but outside window", "carnaval", "2027-03-01", "BR", nil},
		{"lasting", "saudades", "2027-06-01", "", []string{"pt.saudade"}},
		{"han substring", "我是龙的传人啊", "2027-06-01", "", []string{"zh.dragon"}},
		{"one han character only exactly", "龙虾", "2027-06-01", "", nil},
		{"one han character exact", "龙", "2027-06-01", "", []string{"zh.dragon"}},
		{"nothing", "pizza", "2026-12-20", "BR", nil},
		{"empty query", "", "2026-12-20", "BR", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := MatchCulture(f, c.query, c.day, c.region)
			var gotIDs []string
			for _, r := range got {
				gotIDs = append(gotIDs, r.CultureID)
				assert.Equal(t, Source, r.Source)
				assert.Equal(t, Field, r.Field)
				assert.NotEmpty(t, r.Context)
				assert.NotEmpty(t, r.Match)
			}
			assert.Equal(t, c.want, gotIDs)
		})
	}
	t.Run("result fields", func(t *testing.T) {
		got := MatchCulture(f, "papai noel", "2026-12-20", "")
		require.Len(t, got, 1)
		assert.Equal(t, Result{Emoji: "🎅", ID: "1F385", Score: 0.7, Source: "culture", Match: "papai noel", Field: "culture", Context: "Papai Noel", CultureID: "pt.papai-noel"}, got[0])
	})
	t.Run("the best trigger is the match", func(t *testing.T) {
		got := MatchCulture(f, "Feliz Natal", "2026-12-20", "")
		require.NotEmpty(t, got)
		assert.Equal(t, "feliz natal", got[0].Match)
	})
	assert.Nil(t, MatchCulture(nil, "natal", "2026-12-20", ""))
}

func TestInsertCulture(t *testing.T) {
	custom := Result{Emoji: ":party:", ID: "C-1", Score: 1, Source: SourceCustom}
	six := []Result{cul("K1", .9), cul("K2", .8), cul("K3", .7), cul("K4", .6), cul("K5", .5), cul("K6", .4)}
	cases := []struct {
		name    string
		results []Result
		culture []Result
		limit   int
		want    []string
	}{
		{"after the top result", canon("A", "B", "C"), six[:2], 24, []string{"A", "K1", "K2", "B", "C"}},
		{"at most five", canon("A", "B"), six, 24, []string{"A", "K1", "K2", "K3", "K4", "K5", "B"}},
		{"then cut to limit", canon("A", "B", "C"), six, 4, []string{"A", "K1", "K2", "K3"}},
		{"limit one keeps the top answer", canon("A", "B"), six, 1, []string{"A"}},
		{"custom emoji stay first", append([]Result{custom}, canon("A", "B")...), six[:1], 24, []string{"C-1", "A", "K1", "B"}},
		{"custom anywhere goes first", []Result{canon("A")[0], custom}, six[:1], 24, []string{"C-1", "A", "K1"}},
		{"culture for the top emoji dropped", canon("K1", "B"), six[:2], 24, []string{"K1", "K2", "B"}},
		{"later canonical duplicate removed", canon("A", "B", "K2"), six[:2], 24, []string{"A", "K1", "K2", "B"}},
		{"no canonical results", nil, six[:2], 24, []string{"K1", "K2"}},
		{"no culture results", canon("A", "B"), nil, 24, []string{"A", "B"}},
		{"no limit", canon("A"), six[:1], 0, []string{"A", "K1"}},
		{"skin tone variant counts as its base", canon("1F44B-1F3FD", "B"), []Result{cul("1F44B", .5)}, 24, []string{"1F44B-1F3FD", "B"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := InsertCulture(c.results, c.culture, c.limit)
			assert.Equal(t, c.want, ids(got))
		})
	}
	t.Run("scores are the entry weights", func(t *testing.T) {
		got := InsertCulture(canon("A"), six[:1], 24)
		assert.Equal(t, 0.9, got[1].Score)
		assert.Equal(t, "culture", got[1].Source)
	})
}

func TestMatchRegionalLead(t *testing.T) {
	f := fixture()
	cases := []struct {
		name, query, top, day, region string
		want                          string // hexcode, "" for no lead
	}{
		{"in scope, equal to trigger, names the top", "ok", "1F44C", "2027-01-01", "BR", "1F44D"},
		{"region case-insensitive", "OK", "1F44C", "2027-01-01", "br", "1F44D"},
		{"without region", "ok", "1F44C", "2027-01-01", "", ""},
		{"region outside the scope", "ok", "1F44C", "2027-01-01", "PT", ""},
		{"query only contains the trigger", "ok obrigado", "1F44C", "2027-01-01", "BR", ""},
		{"top is not an answer it names", "ok", "1F197", "2027-01-01", "BR", ""},
		{"undated regional entry, any day", "ok", "1F44C", "2030-06-01", "BR", "1F44D"},
		{"dated regional entry in its window", "carnaval", "1F483", "2027-02-06", "BR", "1F3AD"},
		{"dated regional entry outside its window", "carnaval", "1F483", "2027-03-06", "BR", ""},
		{"top answer not named in Over", "carnaval", "1F389", "2027-02-06", "BR", ""},
		{"entry without Over never leads", "chimarrao", "2615", "2027-02-06", "BR", ""},
		{"no top answer", "ok", "", "2027-01-01", "BR", ""},
		{"not regional", "natal", "1F31F", "2026-12-20", "BR", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, ok := MatchRegionalLead(f, c.query, c.top, c.day, c.region)
			assert.Equal(t, c.want != "", ok)
			assert.Equal(t, c.want, r.ID)
			if ok {
				assert.Equal(t, Source, r.Source)
				assert.NotEmpty(t, r.CultureID)
			}
		})
	}
	_, ok := MatchRegionalLead(nil, "ok", "1F44C", "2027-01-01", "BR")
	assert.False(t, ok)
}

// TestApplyCulture walks the culture rules of spec 1 (GET /v1/search).
func TestApplyCulture(t *testing.T) {
	f := fixture()
	custom := Result{Emoji: ":ok:", ID: "C-9", Score: 1, Source: SourceCustom}
	cases := []struct {
		name    string
		file    *File
		query   string
		results []Result
		opts    Options
		want    []string
	}{
		{"rule 1: no culture file, canonical only", nil, "natal", canon("1F31F", "B"), Options{Day: "2026-12-20", Limit: 24}, []string{"1F31F", "B"}},
		{"rule 2: after the top canonical result", f, "natal", canon("1F31F", "B"), Options{Day: "2026-12-20", Limit: 24}, []string{"1F31F", "1F384", "1F385", "1F602", "B"}},
		{"rule 2: cut to limit", f, "natal", canon("1F31F", "B"), Options{Day: "2026-12-20", Limit: 2}, []string{"1F31F", "1F384"}},
		{"rule 2: custom emoji first", f, "natal", append([]Result{custom}, canon("1F31F")...), Options{Day: "2026-12-20", Limit: 24}, []string{"C-9", "1F31F", "1F384", "1F385", "1F602"}},
		{"rule 3: regional lead puts its emoji first, canonical second", f, "ok", canon("1F44C", "1F197"), Options{Day: "2027-01-01", Region: "BR", Limit: 24}, []string{"1F44D", "1F44C", "1F197"}},
		{"rule 3: custom still before the lead", f, "ok", append([]Result{custom}, canon("1F44C")...), Options{Day: "2027-01-01", Region: "BR", Limit: 24}, []string{"C-9", "1F44D", "1F44C"}},
		{"rule 3: without region the canonical answer stays first", f, "ok", canon("1F44C", "1F197"), Options{Day: "2027-01-01", Limit: 24}, []string{"1F44C", "1F197"}},
		{"rule 3: region outside the scope", f, "ok", canon("1F44C", "1F197"), Options{Day: "2027-01-01", Region: "PT", Limit: 24}, []string{"1F44C", "1F197"}},
		{"rule 3: phrase, not equal: after the top", f, "ok beleza", canon("1F44C", "1F197"), Options{Day: "2027-01-01", Region: "BR", Limit: 24}, []string{"1F44C", "1F44D", "1F197"}},
		{"rule 3: lead and limit 1", f, "ok", canon("1F44C"), Options{Day: "2027-01-01", Region: "BR", Limit: 1}, []string{"1F44D"}},
		{"rule 4: window checked against the day", f, "natal", canon("1F31F"), Options{Day: "2026-12-27", Limit: 24}, []string{"1F31F", "1F602"}},
		{"no canonical results", f, "saudade", nil, Options{Day: "2027-01-01", Limit: 24}, []string{"1F97A"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ApplyCulture(c.file, c.query, c.results, c.opts)
			assert.Equal(t, c.want, ids(got))
		})
	}
	t.Run("rule 4: UTC day boundaries", func(t *testing.T) {
		last := time.Date(2026, 12, 26, 23, 59, 59, 0, time.UTC)
		got := ApplyCulture(f, "papai noel", canon("A"), Options{Day: UTCDay(last), Limit: 24})
		assert.Equal(t, []string{"A", "1F385"}, ids(got))
		got = ApplyCulture(f, "papai noel", canon("A"), Options{Day: UTCDay(last.Add(time.Second)), Limit: 24})
		assert.Equal(t, []string{"A"}, ids(got))
		// 2026-12-27 09:00 in Tokyo is still 2026-12-26 in UTC: active on the server
		tokyo := time.FixedZone("JST", 9*3600)
		got = ApplyCulture(f, "papai noel", canon("A"), Options{Day: UTCDay(time.Date(2026, 12, 27, 8, 0, 0, 0, tokyo)), Limit: 24})
		assert.Equal(t, []string{"A", "1F385"}, ids(got))
	})
	t.Run("rule 5: the canonical input is not changed", func(t *testing.T) {
		in := canon("1F31F", "B")
		before := ids(in)
		ApplyCulture(f, "natal", in, Options{Day: "2026-12-20", Limit: 24})
		assert.Equal(t, before, ids(in))
	})
	t.Run("rule 6: Cache-Control", func(t *testing.T) { assert.Equal(t, "public, max-age=3600", CacheControl) })
}

func TestRelevantNow(t *testing.T) {
	f := fixture()
	cases := []struct {
		name, day, region string
		limit             int
		want              []string
	}{
		{"december", "2026-12-20", "", 10, []string{"pt.natal", "pt.papai-noel"}},
		{"limit", "2026-12-20", "", 1, []string{"pt.natal"}},
		{"carnival without region", "2027-02-06", "", 0, []string{}},
		{"carnival in Brazil", "2027-02-06", "BR", 0, []string{"pt.carnaval"}},
		{"carnival in Portugal", "2027-02-06", "PT", 0, []string{}},
		{"lasting entries never featured", "2027-06-01", "BR", 0, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := RelevantNow(f, c.day, c.region, c.limit)
			gotIDs := []string{}
			for _, x := range got {
				gotIDs = append(gotIDs, x.CultureID)
				assert.NotEmpty(t, x.Emoji)
				assert.NotEmpty(t, x.Hexcode)
				assert.NotEmpty(t, x.Context)
			}
			assert.Equal(t, c.want, gotIDs)
		})
	}
	assert.Nil(t, RelevantNow(nil, "2026-12-20", "", 0))
}

func TestInfo(t *testing.T) {
	f := fixture()
	b, _ := json.Marshal(f.Info("2026-11-23", ""))
	assert.JSONEq(t, `{"from":"2026-11-23","day":"2026-11-23","region":null}`, string(b))
	b, _ = json.Marshal(f.Info("2026-11-23", "BR"))
	assert.JSONEq(t, `{"from":"2026-11-23","day":"2026-11-23","region":"BR"}`, string(b))
	var nilFile *File
	assert.Nil(t, nilFile.Info("2026-11-23", ""))
}

func TestErrorsMatchable(t *testing.T) {
	f := fixture()
	f.Entries[0].Weight = 2
	assert.True(t, errors.Is(Assert(f), ErrInvalid))
	assert.False(t, errors.Is(Assert(f), ErrFormat))
}
