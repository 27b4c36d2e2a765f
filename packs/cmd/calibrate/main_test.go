package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/emojisearch/emojisearch/engine/packfmt"
	"github.com/emojisearch/emojisearch/service/meaning"
)

// TestModelCalibrationIsTheProbe: the calibration service/meaning uses for
// glove-cldr@100 is the one this probe derives from the committed packs,
// vector file and model (about 20 s on two cores; skipped with -short).
func TestModelCalibrationIsTheProbe(t *testing.T) {
	if testing.Short() {
		t.Skip("probe takes about 20 s")
	}
	r, err := Run(filepath.Join("..", "..", "dist", packfmt.DefaultVersion), filepath.Join("..", "..", "models", "glove-cldr.100.embm"))
	require.NoError(t, err)
	m, err := meaning.Lookup(r.Model)
	require.NoError(t, err)
	assert.Equal(t, r.Floor, m.Calibration.Floor, "Floor (go run ./packs/cmd/calibrate)")
	assert.Equal(t, r.Ceiling, m.Calibration.Ceiling, "Ceiling (go run ./packs/cmd/calibrate)")
	assert.Greater(t, r.N, 50000)
}

func TestMonotone(t *testing.T) {
	bins := []Bin{{Share: 0.2}, {Share: 0.5}, {Share: 0.3}, {Share: 0.9}}
	monotone(bins)
	got := []float64{bins[0].Share, bins[1].Share, bins[2].Share, bins[3].Share}
	assert.InDeltaSlice(t, []float64{0.2, 0.4, 0.4, 0.9}, got, 1e-9)
}
