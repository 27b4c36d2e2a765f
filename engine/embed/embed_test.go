package embed_test

import (
	"bytes"
	"math"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// ModelPath is the committed glove-cldr model, relative to this package.
const modelPath = "../../packs/models/glove-cldr.100.embm"

var (
	modelOnce sync.Once
	model     *embed.Model
	modelErr  error
)

func loadModel(t testing.TB) *embed.Model {
	t.Helper()
	modelOnce.Do(func() {
		b, err := os.ReadFile(modelPath)
		if err != nil {
			modelErr = err
			return
		}
		model, modelErr = embed.Load(b)
	})
	require.NoError(t, modelErr)
	return model
}

func cos(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

func tiny(t *testing.T) []byte {
	t.Helper()
	words := []embed.Word{
		{Text: "cat", Weight: 1, Vec: []float32{1, 0, 0}},
		{Text: "dog", Weight: 0.5, Vec: []float32{0, 2, 0}},
		{Text: "the", Weight: 0.01, Vec: []float32{0, 0, 1}},
		{Text: "ship", Weight: 1, Vec: []float32{0, 0.6, 0.8}},
		{Text: "it", Weight: 0.2, Vec: []float32{0.6, 0, 0.8}},
		{Text: "生气", Weight: 1, Vec: []float32{-1, 0, 0}},
		{Text: "猫", Weight: 1, Vec: []float32{1, 0.1, 0}},
	}
	var b bytes.Buffer
	require.NoError(t, embed.Encode(&b, "tiny", 3, nil, words))
	return b.Bytes()
}

func TestEncodeLoadRoundTrip(t *testing.T) {
	data := tiny(t)
	m, err := embed.Load(data)
	require.NoError(t, err)
	assert.Equal(t, "tiny@3", m.Name())
	assert.Equal(t, "tiny", m.Key())
	assert.Equal(t, 3, m.Dims())
	assert.Equal(t, []string{"cat", "dog", "it", "ship", "the", "猫", "生气"}, m.Words())
	v, w, ok := m.Lookup("dog")
	require.True(t, ok)
	assert.InDelta(t, 0.5, w, 1.0/255)
	assert.InDeltaSlice(t, []float32{0, 1, 0}, v, 0.01)
	_, _, ok = m.Lookup("cow")
	assert.False(t, ok)

	var again bytes.Buffer
	words := make([]embed.Word, 0, m.Len())
	for _, s := range m.Words() {
		v, w, _ := m.Lookup(s)
		words = append(words, embed.Word{Text: s, Weight: w, Vec: v})
	}
	require.NoError(t, embed.Encode(&again, "tiny", 3, nil, words))
	m2, err := embed.Load(again.Bytes())
	require.NoError(t, err)
	for _, s := range m.Words() {
		a, wa, _ := m.Lookup(s)
		b, wb, _ := m2.Lookup(s)
		assert.InDeltaSlice(t, a, b, 2e-3, s) // within int8 quantisation
		assert.Equal(t, wa, wb, s)
	}
	assert.Equal(t, data, tiny(t), "the same words give the same bytes")
}

func TestEncodeErrors(t *testing.T) {
	v := []float32{1, 0}
	tests := []struct {
		name  string
		key   string
		dims  int
		words []embed.Word
		want  string
	}{
		{"empty key", "", 2, nil, "model key"},
		{"key with @", "a@2", 2, nil, "model key"},
		{"zero dims", "k", 0, nil, "dims"},
		{"empty word", "k", 2, []embed.Word{{Text: "", Vec: v}}, "empty word"},
		{"duplicate", "k", 2, []embed.Word{{Text: "a", Vec: v}, {Text: "a", Vec: v}}, "duplicate"},
		{"wrong dims", "k", 2, []embed.Word{{Text: "a", Vec: []float32{1}}}, "dims"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := embed.Encode(&bytes.Buffer{}, tc.key, tc.dims, nil, tc.words)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestLoadRejectsBadFiles(t *testing.T) {
	good := tiny(t)
	flip := func(i int) []byte { b := bytes.Clone(good); b[i] ^= 0xff; return b }
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"short", good[:10]},
		{"wrong magic", append([]byte("XXXX"), good[4:]...)},
		{"other version", flip(4)},
		{"truncated", good[:len(good)-9]},
		{"flipped body byte", flip(len(good) / 2)},
		{"flipped checksum", flip(len(good) - 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := embed.Load(tc.data)
			assert.ErrorIs(t, err, embed.ErrModel)
		})
	}
}

func TestPoolingTiny(t *testing.T) {
	m, err := embed.Load(tiny(t))
	require.NoError(t, err)
	tests := []struct {
		name  string
		text  string
		words []string
		near  []float32
	}{
		{"one word", "Cat!", []string{"cat"}, []float32{1, 0, 0}},
		{"stop word barely counts", "the cat", []string{"the", "cat"}, []float32{1, 0, 0.01}},
		{"stem", "dogs", []string{"dog"}, []float32{0, 1, 0}},
		{"compound split", "shipit", []string{"ship", "it"}, nil},
		{"unspaced longest match", "我很生气猫", []string{"生气", "猫"}, nil},
		{"unknown words only", "zzz qqq", nil, []float32{0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			words, _ := m.Tokens(tc.text)
			assert.Equal(t, tc.words, words)
			v := m.Embed(tc.text)
			require.Len(t, v, 3)
			if tc.near != nil {
				assert.InDeltaSlice(t, tc.near, v, 0.02)
			}
		})
	}
}

func TestBadInputNeverPanics(t *testing.T) {
	m := loadModel(t)
	inputs := map[string]string{
		"empty":         "",
		"spaces":        "   \t\n",
		"10 KB":         strings.Repeat("so tired after work ", 512),
		"invalid utf8":  "\xff\xfe cat \xc3\x28 \xed\xa0\x80",
		"nul bytes":     "cat\x00dog",
		"emoji only":    "😂🔥👍🏽",
		"long han run":  strings.Repeat("生气猫狗", 300),
		"one long word": strings.Repeat("a", 5000),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			var v []float32
			require.NotPanics(t, func() { v = m.Embed(in) })
			require.Len(t, v, m.Dims())
			n := cos(v, v)
			for _, x := range v {
				require.False(t, math.IsNaN(float64(x)) || math.IsInf(float64(x), 0))
			}
			assert.True(t, n == 0 || math.Abs(n-1) < 1e-4, "zero or unit length, got %v", n)
		})
	}
}

// TestModelSemantics checks real pre-trained meaning in the committed model:
// the query is nearer the first text than the second.
func TestModelSemantics(t *testing.T) {
	m := loadModel(t)
	assert.Equal(t, "glove-cldr@100", m.Name())
	tests := []struct {
		name, query, near, far string
	}{
		{"cat is an animal", "cat", "cat face | cat | pet | kitten", "automobile | car"},
		{"tired is a weary face", "so tired after work", "weary face | tired | sleepy", "party popper | celebration"},
		{"ship it is a ship", "ship it", "ship | boat | passenger", "pizza | cheese | slice"},
		{"es gato is cat", "gato", "cat face | cat | pet", "dog face | dog | pet"},
		{"fr chat is cat", "chat", "cat face | cat | pet", "automobile | car"},
		{"zh 生气 is angry", "我很生气", "enraged face | angry | mad | rage", "grinning face | happy | smile"},
		{"ar قطة is cat", "قطة", "cat face | cat", "rocket | space"},
		{"ru кот is cat", "кот", "cat face | cat", "pizza | cheese"},
		{"hi प्यार is love", "प्यार", "red heart | love | heart", "automobile | car"},
		{"birthday", "birthday party", "birthday cake | celebration | cake", "police car | patrol"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := m.Embed(tc.query)
			near, far := cos(q, m.Embed(tc.near)), cos(q, m.Embed(tc.far))
			assert.Greater(t, near, far, "cos(%q,%q)=%.3f vs %q %.3f", tc.query, tc.near, near, tc.far, far)
		})
	}
}

func TestEmbedDeterministicAndConcurrent(t *testing.T) {
	m := loadModel(t)
	want := m.Embed("ship it")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				assert.Equal(t, want, m.Embed("ship it"))
			}
		})
	}
	wg.Wait()
	assert.Equal(t, [][]float32{want, want}, m.EmbedAll([]string{"ship it", "ship it"}))
}

func BenchmarkEmbed(b *testing.B) {
	m := loadModel(b)
	for _, q := range []string{"cat", "so tired after work", "我很生气", "estoy muy cansado después del trabajo"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				m.Embed(q)
			}
		})
	}
}

func BenchmarkLoad(b *testing.B) {
	data, err := os.ReadFile(modelPath)
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := embed.Load(data); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzEmbed(f *testing.F) {
	m := loadModel(f)
	for _, s := range []string{"", "cat", "so tired after work", "我很生气", "\xff\xfe", "shipit", "kediler", "🐱 gato"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := m.Embed(s)
		if len(v) != m.Dims() {
			t.Fatalf("%d dims", len(v))
		}
		n := cos(v, v)
		if n != 0 && math.Abs(n-1) > 1e-4 {
			t.Fatalf("length %v", n)
		}
	})
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("EMBM\x01\x00"))
	var b bytes.Buffer
	_ = embed.Encode(&b, "k", 2, nil, []embed.Word{{Text: "a", Weight: 1, Vec: []float32{1, 0}}})
	f.Add(b.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := embed.Load(data)
		if err == nil {
			m.Embed("a b c")
		}
	})
}

func TestClamp01(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{-0.5, 0}, {0, 0}, {0.25, 0.25}, {1, 1}, {1.5, 1}, {math.NaN(), 0}, {math.Inf(1), 1}, {math.Inf(-1), 0},
	} {
		assert.Equal(t, c.want, embed.Clamp01(c.in), "%v", c.in)
		assert.Equal(t, float32(c.want), embed.Clamp01(float32(c.in)), "float32 %v", c.in)
	}
}
