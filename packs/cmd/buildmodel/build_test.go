package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/embed"
)

// tinyGlove has five English words on three axes: animals, vehicles, "the".
func tinyGlove() *glove {
	return &glove{dims: 3, words: []string{"the", "cat", "car", "kitten", "automobile"}, vecs: map[string][]float32{
		"the": {0.5, 0.5, 0.5}, "cat": {1, 0.1, 0}, "kitten": {0.9, 0.2, 0}, "car": {0, 1, 0.1}, "automobile": {0.1, 0.9, 0},
	}}
}

func tinyTexts() []emojiText {
	return []emojiText{
		{id: "1F431", names: map[string][]string{"en": {"cat face"}, "es": {"cara de gato"}, "zh": {"猫脸"}},
			words: map[string][]string{"en": {"cat", "kitten"}, "es": {"gato"}, "zh": {"猫"}}},
		{id: "1F697", names: map[string][]string{"en": {"automobile"}, "es": {"automóvil"}, "zh": {"汽车"}},
			words: map[string][]string{"en": {"car"}, "es": {"coche"}, "zh": {"车"}}},
	}
}

func buildTiny(t *testing.T) (*embed.Model, []byte) {
	t.Helper()
	words, common, err := build(tinyGlove(), tinyTexts(), []string{"en", "es", "zh"}, options{key: "tiny", general: 2})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, embed.Encode(&b, "tiny", 3, common, words))
	m, err := embed.Load(b.Bytes())
	require.NoError(t, err)
	return m, b.Bytes()
}

func TestBuildBridgesLocales(t *testing.T) {
	m, data := buildTiny(t)
	_, again := buildTiny(t)
	assert.Equal(t, data, again, "deterministic")

	words := m.Words()
	for _, w := range []string{"the", "cat", "kitten", "car", "automobile", "gato", "coche", "automovil", "猫", "猫脸", "脸", "汽车"} {
		assert.Contains(t, words, w)
	}
	cosine := func(a, b string) float64 {
		x, y := m.Embed(a), m.Embed(b)
		var d float64
		for i := range x {
			d += float64(x[i]) * float64(y[i])
		}
		return d
	}
	tests := []struct{ query, near, far string }{
		{"gato", "cat", "car"},
		{"coche", "car", "cat"},
		{"我的猫", "kitten", "automobile"},
		{"汽车", "car", "cat"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			assert.Greater(t, cosine(tc.query, tc.near), cosine(tc.query, tc.far))
		})
	}
	_, wThe, _ := m.Lookup("the")
	assert.InDelta(t, minWeight, wThe, 1.0/255, "the most frequent stop word sits at the floor")
	assert.InDelta(t, 0.013*stopFactor, sifWeight(0)*stopFactor, 0.001)
	assert.Greater(t, sifWeight(5000), float32(0.98), "rare words weigh about 1")
	_, wChar, _ := m.Lookup("脸")
	_, wWord, _ := m.Lookup("猫脸")
	assert.Less(t, wChar, wWord, "single Han characters cut from keywords weigh less")
}

func TestBuildNeedsEmoji(t *testing.T) {
	_, _, err := build(tinyGlove(), nil, []string{"en"}, options{key: "tiny"})
	assert.Error(t, err)
}
